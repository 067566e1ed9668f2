//! The pool listings' last answers, kept as bytes (`GET /api/pools`, `/api/pools/{denom}`).

use std::collections::BTreeMap;
use std::sync::Mutex;

use axum::body::Bytes;
use serde_json::Value;

use crate::error::Error;
use crate::service::pools::PoolRead;

/// The pool listings' last answers as bytes, with the reads that made them: a listing is
/// serialized once per pool state read and fee (a pool's state changes at most once a block),
/// however many clients ask in between, and answered again as it was. Only the last answer
/// of each is kept: seven small bodies in all.
#[derive(Default)]
pub(crate) struct Listings {
    one: Mutex<BTreeMap<u64, (PoolRead, Bytes)>>,
    all: Mutex<Option<(Vec<PoolRead>, Bytes)>>,
}

impl Listings {
    /// `GET /api/pools/{denom}`'s body for `read`: the kept one if the same read made it,
    /// else what `make` gives, kept.
    pub(super) fn one(
        &self,
        read: &PoolRead,
        make: impl FnOnce() -> crate::Result<Value>,
    ) -> crate::Result<Bytes> {
        let mut one = self.one.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((kept, body)) = one.get(&read.denomination)
            && kept.same(read)
        {
            return Ok(body.clone());
        }
        let body = Bytes::from(serde_json::to_vec(&make()?).map_err(|e| Error::json("a pool", e))?);
        one.insert(read.denomination, (read.clone(), body.clone()));
        Ok(body)
    }

    /// `GET /api/pools`'s body for `reads`, likewise.
    pub(super) fn all(
        &self,
        reads: &[PoolRead],
        make: impl FnOnce() -> crate::Result<Value>,
    ) -> crate::Result<Bytes> {
        let mut all = self.all.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((kept, body)) = all.as_ref()
            && kept.len() == reads.len()
            && kept.iter().zip(reads).all(|(a, b)| a.same(b))
        {
            return Ok(body.clone());
        }
        let body =
            Bytes::from(serde_json::to_vec(&make()?).map_err(|e| Error::json("the pools", e))?);
        *all = Some((reads.to_vec(), body.clone()));
        Ok(body)
    }
}
