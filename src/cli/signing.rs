//! Sending what a command built: signed with the user's key and followed into a block, or
//! printed unsigned (`--unsigned`) for another wallet to sign.

use tron::{Transaction, TxId};

use super::context::Context;
use crate::error::Result;
use crate::service::chain::Chain;
use crate::service::submit;

/// Signs a built transaction, broadcasts it and waits until it is in a block.
pub(crate) async fn sign_and_confirm(
    chain: &Chain,
    mut tx: Transaction,
    key: &tron::PrivateKey,
    what: &str,
) -> Result<TxId> {
    tx.sign(key)?;
    let info = submit::send_and_confirm(chain, &tx, what).await?;
    Ok(info.id)
}

/// `--unsigned`: the API's `{transaction}` object, as the result.
pub(crate) fn print_unsigned(ctx: &Context, tx: &Transaction) -> Result<()> {
    let unsigned = crate::service::builders::Unsigned::new(tx);
    ctx.out.note(format!(
        "unsigned {}; sign it with `tronpool tx sign` or your wallet, then `tronpool tx broadcast`",
        tx.txid()
    ));
    ctx.out.result(&unsigned, || {
        serde_json::to_string_pretty(&unsigned.transaction).expect("JSON values serialize")
    })
}
