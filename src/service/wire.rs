//! The bodies the API writes and its clients read, in one module both sides import: the
//! relayer's status, quotes, requests and answers, and the pages of a pool's leaves and
//! withdrawals a sync server sends. A change here is a change of the wire format, for the
//! server and the client at once; `api/openapi.rs` describes the same bodies.

use alloy_primitives::{B256, U256};
use serde::{Deserialize, Serialize};
use tron::{Address, TxId};
use zk::proof::EncodedProof;

use crate::error::{Error, Result};
use crate::service::format::word_hex;
use crate::store::jobs::{JobState, Reserved};
use crate::store::trees::{Leaf, Withdrawal};

/// A withdrawal as a client asks us to relay it.
#[derive(Debug, Clone)]
pub struct RelayRequest {
    pub denomination: u64,
    pub proof: EncodedProof,
    pub root: B256,
    pub nullifier_hash: B256,
    pub recipient: Address,
    /// Defaults to the fee we ask for this refund.
    pub fee: Option<U256>,
    /// Sun; defaults to zero.
    pub refund: Option<U256>,
}

/// The body of `POST /api/relayer/withdraw`, as the client writes it and the server reads it.
/// Amounts and the denomination are JSON numbers or decimal strings; the server checks every
/// field (`api::relayer`) before it becomes a `RelayRequest`.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = RelayRequest)]
pub struct RelayBody {
    /// `"100"` (a number is accepted too).
    #[schema(schema_with = schema::denomination)]
    pub denomination: serde_json::Value,
    #[schema(schema_with = schema::proof)]
    pub proof: String,
    #[schema(schema_with = schema::word)]
    pub root: String,
    #[schema(schema_with = schema::word)]
    pub nullifier_hash: String,
    #[schema(schema_with = schema::address)]
    pub recipient: String,
    /// USDT base units; the fee the relayer asks for the refund when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = schema::relay_fee)]
    pub fee: Option<serde_json::Value>,
    /// Sun forwarded to the recipient; zero when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = schema::relay_refund)]
    pub refund: Option<serde_json::Value>,
}

impl From<&RelayRequest> for RelayBody {
    fn from(request: &RelayRequest) -> Self {
        RelayBody {
            denomination: request.denomination.to_string().into(),
            proof: request.proof.to_hex(),
            root: word_hex(&request.root),
            nullifier_hash: word_hex(&request.nullifier_hash),
            recipient: request.recipient.to_base58(),
            fee: request.fee.map(|f| f.to_string().into()),
            refund: request.refund.map(|r| r.to_string().into()),
        }
    }
}

/// `GET /api/relayer/status`: what the relayer is and what it charges. The server writes it
/// and the client reads it with this one type.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RelayerStatus {
    pub enabled: bool,
    /// The relayer's address (base58); `null` when relaying is off.
    #[schema(value_type = Option<String>)]
    pub address: Option<Address>,
    pub network: String,
    pub balance_trx: Option<f64>,
    pub energy_available: Option<i64>,
    /// One quote per pool; empty when there is no price (see `price_error`).
    pub fees: Vec<FeeQuote>,
    /// Why there is no quote: the price source is missing, dead or stale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub price_error: Option<String>,
    pub pending: usize,
    /// What the relayer's unfinished jobs may still draw: `fees` are net of it (absent from
    /// a server that does not relay, or predates reservations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub reserved: Option<Reserved>,
    /// How long, in seconds, a quote in `fees` is honoured (`relayer::QUOTE_HOLD`); 0 from a
    /// server that predates it.
    #[serde(default)]
    pub quote_valid_seconds: u64,
    pub version: String,
}

impl RelayerStatus {
    /// A pool's quote, or why there is none.
    pub fn quote(&self, denomination: u64) -> Result<&FeeQuote> {
        self.fees
            .iter()
            .find(|f| f.denomination == denomination)
            .ok_or_else(|| match &self.price_error {
                Some(reason) => Error::Disabled(format!("the relayer quotes no fee: {reason}")),
                None => Error::Refused(format!(
                    "the relayer quotes no fee for the {denomination} USDT pool"
                )),
            })
    }
}

/// `POST /api/relayer/withdraw`: the transaction we signed, and how far it got before we
/// answered (`broadcast`, or `signed` while its broadcast is still under way).
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Relayed {
    /// 64 hex digits.
    #[schema(value_type = String, pattern = "^[0-9a-f]{64}$")]
    pub txid: TxId,
    #[schema(schema_with = schema::relayed_state)]
    pub state: JobState,
}

impl Relayed {
    /// Whether the answer was given before the node took the transaction (HTTP 202).
    pub(crate) fn still_signing(&self) -> bool {
        self.state == JobState::Signed
    }
}

/// One leaf on the wire (`GET /api/pools/{denom}/leaves`).
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct LeafEntry {
    pub index: u32,
    #[schema(schema_with = schema::word)]
    pub commitment: String,
    /// ms.
    pub block_timestamp: i64,
    pub txid: String,
}

/// One withdrawal on the wire (`GET /api/pools/{denom}/withdrawals`).
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct WithdrawalEntry {
    /// Its place among the pool's withdrawals as the server cached them: pass the next one
    /// as `from`.
    pub index: u32,
    #[schema(schema_with = schema::word)]
    pub nullifier_hash: String,
    pub txid: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub block: Option<i64>,
    pub block_timestamp: i64,
    pub recipient: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub relayer: Option<String>,
    /// USDT base units.
    pub fee: String,
}

/// A page of a pool's leaves.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LeavesPage {
    pub denomination: u64,
    pub from: u32,
    /// How many leaves the server holds in all.
    pub total: u32,
    pub leaves: Vec<LeafEntry>,
}

/// A page of a pool's leaves packed for a sync (`GET /api/pools/{denom}/leaves?format=packed`):
/// each field of the page's leaves as one string or array in leaf order, so a pool of a
/// million deposits is 16 pages of about 9 MB instead of a thousand pages of objects. The
/// leaves are `from`, `from + 1`, …: the page says nothing it could contradict.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct PackedLeavesPage {
    pub denomination: u64,
    /// The index of the page's first leaf.
    pub from: u32,
    /// How many leaves the server holds in all.
    pub total: u32,
    /// The commitments, 64 hex digits (32 bytes, big-endian) a leaf, without separators.
    #[schema(pattern = "^([0-9a-f]{64})*$")]
    pub commitments: String,
    /// The depositing transactions' ids, 64 hex digits a leaf, in the same order.
    #[schema(pattern = "^([0-9a-f]{64})*$")]
    pub txids: String,
    /// The deposits' block times (ms), one a leaf.
    pub block_timestamps: Vec<i64>,
}

/// A page of a pool's leaves in the format it was asked for.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub(crate) enum LeavesReply {
    Entries(LeavesPage),
    Packed(PackedLeavesPage),
}

impl PackedLeavesPage {
    /// Packs consecutive leaves; a cached txid that is not 32 bytes of hex cannot be packed.
    pub(crate) fn pack(
        denomination: u64,
        from: u32,
        total: u32,
        leaves: &[Leaf],
    ) -> std::result::Result<Self, Malformed> {
        let mut commitments = String::with_capacity(64 * leaves.len());
        let mut txids = String::with_capacity(64 * leaves.len());
        for (leaf, index) in leaves.iter().zip(from..) {
            if leaf.index != index {
                return Err(Malformed::value("leaf index", &leaf.index.to_string()));
            }
            commitments.push_str(&hex::encode(leaf.commitment));
            let txid = word(&leaf.txid, "txid")?;
            txids.push_str(&hex::encode(txid));
        }
        Ok(PackedLeavesPage {
            denomination,
            from,
            total,
            commitments,
            txids,
            block_timestamps: leaves.iter().map(|l| l.block_timestamp).collect(),
        })
    }

    /// The leaves, numbered from `from`; fields of different lengths or that are not hex
    /// are refused whole.
    pub(crate) fn unpack(&self) -> std::result::Result<Vec<Leaf>, Malformed> {
        let n = self.block_timestamps.len();
        for (field, text) in [("commitments", &self.commitments), ("txids", &self.txids)] {
            if text.len() != 64 * n {
                return Err(Malformed::Value {
                    field: field.to_owned(),
                    value: format!("{} hex digits for {n} leaves", text.len()),
                });
            }
        }
        let bytes = |field: &str, text: &str| {
            hex::decode(text).map_err(|e| Malformed::Value {
                field: field.to_owned(),
                value: e.to_string(),
            })
        };
        let commitments = bytes("commitments", &self.commitments)?;
        let txids = bytes("txids", &self.txids)?;
        if u64::from(self.from) + n as u64 > u64::from(u32::MAX) {
            return Err(Malformed::value("from", &self.from.to_string()));
        }
        Ok(commitments
            .chunks_exact(32)
            .zip(txids.chunks_exact(32))
            .zip(&self.block_timestamps)
            .zip(self.from..)
            .map(|(((commitment, txid), &block_timestamp), index)| Leaf {
                index,
                commitment: commitment.try_into().expect("32-byte chunks"),
                block_timestamp,
                txid: hex::encode(txid),
            })
            .collect())
    }
}

/// A page of a pool's withdrawals.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WithdrawalsPage {
    pub denomination: u64,
    pub from: u32,
    pub total: u32,
    pub withdrawals: Vec<WithdrawalEntry>,
}

impl LeafEntry {
    pub(crate) fn from_leaf(leaf: &Leaf) -> Self {
        LeafEntry {
            index: leaf.index,
            commitment: format!("0x{}", hex::encode(leaf.commitment)),
            block_timestamp: leaf.block_timestamp,
            txid: leaf.txid.clone(),
        }
    }

    pub(crate) fn to_leaf(&self) -> std::result::Result<Leaf, Malformed> {
        Ok(Leaf {
            index: self.index,
            commitment: word(&self.commitment, "commitment")?,
            block_timestamp: self.block_timestamp,
            txid: self.txid.clone(),
        })
    }
}

impl WithdrawalEntry {
    pub(crate) fn from_withdrawal(index: u32, w: &Withdrawal) -> Self {
        WithdrawalEntry {
            index,
            nullifier_hash: format!("0x{}", hex::encode(w.nullifier_hash)),
            txid: w.txid.clone(),
            block: w.block,
            block_timestamp: w.block_timestamp,
            recipient: w.recipient.clone(),
            relayer: w.relayer.clone(),
            fee: w.fee.clone(),
        }
    }

    pub(crate) fn to_withdrawal(&self) -> std::result::Result<Withdrawal, Malformed> {
        let address = |text: &str| {
            text.parse::<Address>()
                .map(|a| a.to_base58())
                .map_err(|_| Malformed::value("address", text))
        };
        self.fee
            .parse::<U256>()
            .map_err(|_| Malformed::value("fee", &self.fee))?;
        Ok(Withdrawal {
            nullifier_hash: word(&self.nullifier_hash, "nullifierHash")?,
            txid: self.txid.clone(),
            block: self.block,
            block_timestamp: self.block_timestamp,
            recipient: address(&self.recipient)?,
            relayer: self.relayer.as_deref().map(address).transpose()?,
            fee: self.fee.clone(),
        })
    }
}

/// A 32-byte word written as hex, with or without `0x`.
pub(crate) fn word(text: &str, what: &str) -> std::result::Result<[u8; 32], Malformed> {
    let bytes =
        hex::decode(text.trim_start_matches("0x")).map_err(|_| Malformed::value(what, text))?;
    bytes.try_into().map_err(|_| Malformed::NotAWord {
        field: what.to_owned(),
        value: text.to_owned(),
    })
}

/// A value in another party's answer (a tronpool server's page, the events API, a
/// transaction's logs) that does not read as what it claims to be. The caller says whose
/// answer it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Malformed {
    /// A field holds something else: its name and what it held.
    #[error("{field} `{value}`")]
    Value { field: String, value: String },
    /// A 32-byte field of another length.
    #[error("{field} `{value}` is not 32 bytes")]
    NotAWord { field: String, value: String },
    /// A field that is not there.
    #[error("no `{0}`")]
    Missing(String),
    /// A log that claims to be one of the pool's events and does not decode.
    #[error("a {event} event: {detail}")]
    Log { event: &'static str, detail: String },
}

impl Malformed {
    pub fn value(field: &str, value: &str) -> Self {
        Malformed::Value {
            field: field.to_owned(),
            value: value.to_owned(),
        }
    }
}

/// One pool's fee and how it was reached (`GET /api/relayer/status`, `fees[]`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeeQuote {
    pub denomination: u64,
    /// The fee without a refund, in USDT.
    pub relayer_fee: f64,
    /// The same in base units.
    #[schema(schema_with = schema::raw)]
    pub relayer_fee_raw: String,
    /// Energy the fee is for: a normal relay.
    pub expected_energy: i64,
    /// The most energy a relay may cost; its fee limit.
    pub max_energy: i64,
    /// Sun per energy (the chain's `getEnergyFee`).
    pub energy_price: i64,
    /// Energy the relayer's stake covers before TRX is burned, less what its unfinished
    /// relays reserved.
    pub staked_energy: i64,
    /// Energy of the expected relay the pool's sponsor pays from its stake, which the fee
    /// does not charge for (0 from a server that predates sponsorship).
    #[serde(default)]
    pub sponsor_energy: i64,
    /// Sun a relay's bandwidth burns (zero while its staked bandwidth alone, or its free
    /// allowance alone, holds all of a relay's bytes).
    pub bandwidth_sun: i64,
    /// USDT per TRX.
    pub trx_price: f64,
    /// Where the rate came from: `fixed:…` or `pair:…`.
    pub trx_price_source: String,
    /// Seconds since the rate last moved.
    pub trx_price_age_seconds: u64,
    /// Which reading `trx_price` is: `fixed`, `spot`, `average over N s` (a pair's average,
    /// above its spot price, which a swap cannot push down) or `floor` (the operator's).
    /// Empty from a server that predates it.
    #[serde(default)]
    pub trx_price_basis: String,
    /// The source's current rate (a pair's spot price), USDT per TRX; 0 from a server that
    /// predates it.
    #[serde(default)]
    pub trx_spot_price: f64,
    /// What each TRX of refund adds to the fee, in USDT.
    pub refund_price: f64,
    /// The same in base units.
    #[schema(schema_with = schema::raw)]
    pub refund_price_raw: String,
    pub margin_percent: u32,
}

impl FeeQuote {
    /// The fee this quote asks with a refund of `refund_sun`, in base units.
    pub fn fee_with_refund(&self, refund_sun: i64) -> Result<U256> {
        let parse = |text: &str, what: &str| {
            text.parse::<U256>().map_err(|_| {
                Error::Failed(format!("the relayer's {what} `{text}` is not a number"))
            })
        };
        let fee = parse(&self.relayer_fee_raw, "fee")?;
        let per_trx = parse(&self.refund_price_raw, "refund price")?;
        let refund = U256::from(refund_sun.max(0));
        Ok(fee + (refund * per_trx).div_ceil(U256::from(1_000_000u32)))
    }
}

/// How the wire types' fields that the OpenAPI document cannot read off their Rust type look
/// on the wire (`#[schema(schema_with = …)]`): one definition each, for every type that
/// carries one.
pub(crate) mod schema {
    use utoipa::openapi::schema::{
        KnownFormat, ObjectBuilder, OneOfBuilder, SchemaFormat, SchemaType, Type,
    };
    use utoipa::openapi::{RefOr, Schema};

    fn string(description: &str) -> ObjectBuilder {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(description))
    }

    /// A field element or hash: `0x` and 64 hex digits.
    pub(crate) fn word() -> ObjectBuilder {
        string("0x + 64 hex digits, below the BN254 field modulus")
            .pattern(Some("^0x[0-9a-fA-F]{64}$"))
    }

    /// An amount in base units, as a decimal string.
    pub(crate) fn raw() -> ObjectBuilder {
        string("In base units, as a decimal string").pattern(Some("^[0-9]+$"))
    }

    /// [`raw`], or `null` where there is none.
    pub(crate) fn raw_or_null() -> ObjectBuilder {
        raw().schema_type(
            [Type::String, Type::Null]
                .into_iter()
                .collect::<SchemaType>(),
        )
    }

    /// Where a relayed withdrawal stands when the relayer answers: signed, or taken by the
    /// node.
    pub(crate) fn relayed_state() -> ObjectBuilder {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(["signed", "broadcast"]))
    }

    /// A TRON address in base58.
    pub(crate) fn address() -> ObjectBuilder {
        string("A TRON address, base58 (T…)")
    }

    /// A Groth16 proof as the pool's `withdraw` takes it: eight words.
    pub(crate) fn proof() -> ObjectBuilder {
        string("The proof's eight words, 0x + 512 hex digits").pattern(Some("^0x[0-9a-fA-F]{512}$"))
    }

    /// An amount in base units, a whole number or the same as a decimal string, described
    /// as `description` (a field's doc comment does not reach a `schema_with` schema).
    pub(crate) fn units(description: &str) -> Schema {
        one_of(
            description,
            [
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(0)),
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some("^[0-9]+$")),
            ],
        )
    }

    /// A pool's size in whole USDT: `100` or `"100"`.
    pub(crate) fn denomination() -> Schema {
        one_of(
            "A pool's size in whole USDT: 100 or \"100\"",
            [
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64))),
                ObjectBuilder::new().schema_type(Type::String),
            ],
        )
    }

    /// USDT, like `100` or `"12.5"`, described as `description`.
    pub(crate) fn usdt(description: &str) -> Schema {
        one_of(
            description,
            [
                ObjectBuilder::new().schema_type(Type::Number),
                ObjectBuilder::new().schema_type(Type::String),
            ],
        )
    }

    /// [`RelayBody::fee`].
    pub(crate) fn relay_fee() -> Schema {
        units("USDT base units; the fee the relayer asks for the refund when absent")
    }

    /// [`RelayBody::refund`].
    pub(crate) fn relay_refund() -> Schema {
        units("Sun forwarded to the recipient; zero when absent")
    }

    /// An unsigned transaction in java-tron's JSON.
    pub(crate) fn transaction() -> ObjectBuilder {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .required("txID")
            .required("raw_data")
            .required("raw_data_hex")
            .required("visible")
    }

    fn one_of<const N: usize>(description: &str, choices: [ObjectBuilder; N]) -> Schema {
        let mut one_of = OneOfBuilder::new().description(Some(description));
        for choice in choices {
            one_of = one_of.item(RefOr::T(Schema::Object(choice.build())));
        }
        Schema::OneOf(one_of.build())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(index: u32) -> Leaf {
        Leaf {
            index,
            commitment: [index as u8 + 1; 32],
            block_timestamp: 1_000 + i64::from(index / 2),
            txid: hex::encode([index as u8 + 0x80; 32]),
        }
    }

    #[test]
    fn a_packed_page_unpacks_to_the_leaves_it_packed() {
        let leaves: Vec<Leaf> = (5..9).map(leaf).collect();
        let page = PackedLeavesPage::pack(100, 5, 9, &leaves).unwrap();
        assert_eq!(page.commitments.len(), 4 * 64);
        assert_eq!(page.unpack().unwrap(), leaves);
        let json = serde_json::to_value(&page).unwrap();
        assert_eq!(
            json["blockTimestamps"],
            serde_json::json!([1002, 1003, 1003, 1004])
        );
        let back: PackedLeavesPage = serde_json::from_value(json).unwrap();
        assert_eq!(back.unpack().unwrap(), leaves);
        // Leaves that do not follow `from`, or a txid that is not 32 bytes, are not packed.
        assert!(PackedLeavesPage::pack(100, 4, 9, &leaves).is_err());
        let mut odd = leaves.clone();
        odd[1].txid = "abc".into();
        assert!(PackedLeavesPage::pack(100, 5, 9, &odd).is_err());
    }

    #[test]
    fn a_packed_page_whose_fields_disagree_is_refused_whole() {
        let page = PackedLeavesPage::pack(100, 0, 3, &[leaf(0), leaf(1), leaf(2)]).unwrap();
        let mut short = page.clone();
        short.commitments.pop();
        assert!(
            short
                .unpack()
                .unwrap_err()
                .to_string()
                .contains("commitments")
        );
        let mut fewer = page.clone();
        fewer.block_timestamps.pop();
        assert!(fewer.unpack().is_err());
        let mut not_hex = page.clone();
        not_hex.txids.replace_range(0..1, "g");
        assert!(not_hex.unpack().unwrap_err().to_string().contains("txids"));
        let mut past_the_end = page;
        past_the_end.from = u32::MAX - 1;
        assert!(past_the_end.unpack().is_err());
    }
}

/// A queued pool's next batch as `serve`'s batcher sees it (`docs/batches.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NextBatch {
    /// The first waiting deposit's queue position: the leaf index it will have.
    pub start: u32,
    /// How many deposits the batch inserts: to the end of their block of 32.
    pub count: u32,
    /// When the first waiting deposit was made, in milliseconds since the epoch.
    pub waiting_since: i64,
    /// When the batcher sends the batch at the latest, in milliseconds since the epoch: at
    /// once when it fills its block, else when the first deposit has waited the longest wait.
    /// `null` when a batch that is not full is past the batcher's daily budget for them: it
    /// then waits for a full block (or for anyone to insert it: `tronpool pool insert`).
    pub due_at: Option<i64>,
}

impl NextBatch {
    /// Whether this view of the next batch still describes a pool that has `deposit_count`
    /// deposits in its tree and `queued` waiting: some wait, and none of the batch's is in
    /// the tree yet (a batcher's view is as old as its last look).
    pub fn still_ahead(&self, deposit_count: u32, queued: u32) -> bool {
        queued > 0 && self.start >= deposit_count
    }
}
