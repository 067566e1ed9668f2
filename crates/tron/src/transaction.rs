//! Transactions: building them locally, hashing, signing, and checking what others built.
//!
//! A [`Transaction`] keeps java-tron's `Transaction.raw` message as is, so a transaction parsed
//! from a node or from TronWeb encodes back to exactly the bytes it came with: the txID is
//! `sha256(raw)`, and a single changed byte would make a different transaction than the one the
//! user was shown.

use std::fmt;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use prost::Message;
use sha2::{Digest, Sha256};

use crate::address::Address;
use crate::error::TxError;
use crate::error::address_field;
use crate::keys::{PrivateKey, Signature};
use crate::proto::{self, contract_type, type_url};

/// The 32-byte transaction id, `sha256(raw_data)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TxId(pub [u8; 32]);

impl TxId {
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl fmt::Display for TxId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for TxId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TxId({})", self.to_hex())
    }
}

impl FromStr for TxId {
    type Err = TxError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bytes = crate::hexutil::decode_fixed::<32>("txID", s)?;
        Ok(TxId(bytes))
    }
}

impl serde::Serialize for TxId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_hex())
    }
}

impl<'de> serde::Deserialize<'de> for TxId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The one action a transaction performs, decoded from its contract.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A TRX transfer (`TransferContract`).
    Transfer {
        owner: Address,
        to: Address,
        /// In sun.
        amount: i64,
    },
    /// A contract call (`TriggerSmartContract`).
    Trigger(Trigger),
    /// A deployment (`CreateSmartContract`).
    Create(Box<proto::CreateSmartContract>),
    /// A Stake 2.0 operation: stake, release, withdraw, lend or take back.
    Stake(crate::stake::Stake),
    /// A contract's resource setting, changed by its origin.
    Setting(crate::settings::ContractSetting),
}

/// A contract call.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Trigger {
    pub owner: Address,
    pub contract: Address,
    /// TRX sent along, in sun.
    pub call_value: i64,
    /// ABI calldata: selector and arguments.
    pub data: Vec<u8>,
    pub call_token_value: i64,
    pub token_id: i64,
}

impl Action {
    /// The java-tron name of the contract type.
    pub fn type_name(&self) -> &'static str {
        match self {
            Action::Transfer { .. } => "TransferContract",
            Action::Trigger(_) => "TriggerSmartContract",
            Action::Create(_) => "CreateSmartContract",
            Action::Stake(s) => s.type_name(),
            Action::Setting(s) => s.type_name(),
        }
    }

    /// The account that must sign.
    pub fn owner(&self) -> Result<Address, TxError> {
        match self {
            Action::Transfer { owner, .. } => Ok(*owner),
            Action::Trigger(t) => Ok(t.owner),
            Action::Create(c) => address_field("owner_address", &c.owner_address),
            Action::Stake(s) => Ok(s.owner()),
            Action::Setting(s) => Ok(s.owner()),
        }
    }

    fn to_contract(&self) -> proto::Contract {
        let (kind, url, value) = match self {
            Action::Transfer { owner, to, amount } => (
                contract_type::TRANSFER,
                type_url::TRANSFER,
                proto::TransferContract {
                    owner_address: owner.tron_bytes().to_vec(),
                    to_address: to.tron_bytes().to_vec(),
                    amount: *amount,
                }
                .encode_to_vec(),
            ),
            Action::Trigger(t) => (
                contract_type::TRIGGER_SMART_CONTRACT,
                type_url::TRIGGER_SMART_CONTRACT,
                proto::TriggerSmartContract {
                    owner_address: t.owner.tron_bytes().to_vec(),
                    contract_address: t.contract.tron_bytes().to_vec(),
                    call_value: t.call_value,
                    data: t.data.clone(),
                    call_token_value: t.call_token_value,
                    token_id: t.token_id,
                }
                .encode_to_vec(),
            ),
            Action::Create(c) => (
                contract_type::CREATE_SMART_CONTRACT,
                type_url::CREATE_SMART_CONTRACT,
                c.encode_to_vec(),
            ),
            Action::Stake(s) => s.encode(),
            Action::Setting(s) => s.encode(),
        };
        proto::Contract {
            r#type: kind,
            parameter: Some(proto::Any {
                type_url: url.to_owned(),
                value,
            }),
            ..Default::default()
        }
    }

    fn from_contract(contract: &proto::Contract) -> Result<Self, TxError> {
        let any = contract
            .parameter
            .as_ref()
            .ok_or_else(|| TxError::MissingField("contract.parameter".into()))?;
        let bad = |e: prost::DecodeError| TxError::BadProtobuf(e.to_string());
        match contract.r#type {
            contract_type::TRANSFER => {
                let c = proto::TransferContract::decode(any.value.as_slice()).map_err(bad)?;
                Ok(Action::Transfer {
                    owner: address_field("owner_address", &c.owner_address)?,
                    to: address_field("to_address", &c.to_address)?,
                    amount: c.amount,
                })
            }
            contract_type::TRIGGER_SMART_CONTRACT => {
                let c = proto::TriggerSmartContract::decode(any.value.as_slice()).map_err(bad)?;
                Ok(Action::Trigger(Trigger {
                    owner: address_field("owner_address", &c.owner_address)?,
                    contract: address_field("contract_address", &c.contract_address)?,
                    call_value: c.call_value,
                    data: c.data,
                    call_token_value: c.call_token_value,
                    token_id: c.token_id,
                }))
            }
            contract_type::CREATE_SMART_CONTRACT => {
                let c = proto::CreateSmartContract::decode(any.value.as_slice()).map_err(bad)?;
                address_field("owner_address", &c.owner_address)?;
                Ok(Action::Create(Box::new(c)))
            }
            other => {
                if let Some(stake) = crate::stake::Stake::decode(other, &any.value) {
                    return Ok(Action::Stake(stake?));
                }
                match crate::settings::ContractSetting::decode(other, &any.value) {
                    Some(setting) => Ok(Action::Setting(setting?)),
                    None => Err(TxError::UnsupportedContract(other.to_string())),
                }
            }
        }
    }
}

/// The block a transaction refers to (TaPoS): the node accepts the transaction only while this
/// block is among its last 65,536 and on its chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefBlock {
    pub number: i64,
    /// The block id: 8-byte big-endian number ‖ bytes 8..32 of the header hash.
    pub id: [u8; 32],
    /// Block time in ms.
    pub timestamp: i64,
}

impl RefBlock {
    /// `ref_block_bytes`: the low two bytes of the block number.
    pub fn ref_bytes(&self) -> [u8; 2] {
        [self.id[6], self.id[7]]
    }

    /// `ref_block_hash`: bytes 8..16 of the block id.
    pub fn ref_hash(&self) -> [u8; 8] {
        self.id[8..16].try_into().expect("8 bytes")
    }
}

/// How long a locally built transaction stays valid after its reference block, as java-tron's
/// and TronWeb's builders do.
pub const DEFAULT_EXPIRATION_MS: i64 = 60_000;

/// The longest a node accepts: 24 hours past its head block.
pub const MAX_EXPIRATION_MS: i64 = 86_400_000;

/// Builds a transaction locally from a reference block, so tronpool never has to trust a
/// node's builder endpoints with what it signs.
#[derive(Clone, Debug)]
pub struct TransactionBuilder {
    action: Action,
    ref_block: RefBlock,
    expiration: Option<i64>,
    timestamp: Option<i64>,
    fee_limit: i64,
    memo: Vec<u8>,
}

impl TransactionBuilder {
    pub fn new(action: Action, ref_block: RefBlock) -> Self {
        TransactionBuilder {
            action,
            ref_block,
            expiration: None,
            timestamp: None,
            fee_limit: 0,
            memo: Vec::new(),
        }
    }

    /// Absolute expiration in ms (default: the reference block's time + 60 s).
    pub fn expiration(mut self, ms: i64) -> Self {
        self.expiration = Some(ms);
        self
    }

    /// Creation time in ms (default: the local clock). Informational only; nodes do not check it.
    pub fn timestamp(mut self, ms: i64) -> Self {
        self.timestamp = Some(ms);
        self
    }

    /// The most sun the transaction may burn for energy (contract calls and deployments).
    pub fn fee_limit(mut self, sun: i64) -> Self {
        self.fee_limit = sun;
        self
    }

    /// A memo (`raw_data.data`); nodes burn a fee for a non-empty one.
    pub fn memo(mut self, memo: Vec<u8>) -> Self {
        self.memo = memo;
        self
    }

    pub fn build(self) -> Transaction {
        let raw = proto::TransactionRaw {
            ref_block_bytes: self.ref_block.ref_bytes().to_vec(),
            ref_block_hash: self.ref_block.ref_hash().to_vec(),
            expiration: self
                .expiration
                .unwrap_or(self.ref_block.timestamp + DEFAULT_EXPIRATION_MS),
            data: self.memo,
            contract: vec![self.action.to_contract()],
            timestamp: self.timestamp.unwrap_or_else(now_ms),
            fee_limit: self.fee_limit,
            ..Default::default()
        };
        Transaction {
            raw,
            signatures: Vec::new(),
        }
    }
}

/// Milliseconds since the Unix epoch, by the local clock.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A TRON transaction: the raw data that is hashed and signed, plus its signatures.
#[derive(Clone, Debug, PartialEq)]
pub struct Transaction {
    raw: proto::TransactionRaw,
    signatures: Vec<Signature>,
}

impl Transaction {
    /// Wraps raw data, checking it holds exactly one contract of a type tronpool understands.
    pub fn from_raw(raw: proto::TransactionRaw) -> Result<Self, TxError> {
        let tx = Transaction {
            raw,
            signatures: Vec::new(),
        };
        tx.action()?;
        Ok(tx)
    }

    /// Decodes `raw_data_hex` (the bytes behind the txID).
    pub fn from_raw_bytes(bytes: &[u8]) -> Result<Self, TxError> {
        let raw = proto::TransactionRaw::decode(bytes)
            .map_err(|e| TxError::BadProtobuf(e.to_string()))?;
        let tx = Self::from_raw(raw)?;
        if tx.raw_bytes() != bytes {
            // Non-canonical input (fields out of order, explicit defaults, unknown fields):
            // signing our re-encoding would sign something other than what was shown.
            return Err(TxError::Invalid(
                "raw data is not canonically encoded; refusing to reinterpret it".into(),
            ));
        }
        Ok(tx)
    }

    /// Decodes a whole signed `Transaction` message (what `broadcasthex` takes).
    pub fn from_protobuf(bytes: &[u8]) -> Result<Self, TxError> {
        let msg =
            proto::Transaction::decode(bytes).map_err(|e| TxError::BadProtobuf(e.to_string()))?;
        let raw = msg
            .raw_data
            .ok_or_else(|| TxError::MissingField("raw_data".into()))?;
        let mut tx = Self::from_raw(raw)?;
        tx.signatures = msg
            .signature
            .iter()
            .enumerate()
            .map(|(index, s)| {
                Signature::from_slice(s).map_err(|source| TxError::BadSignature { index, source })
            })
            .collect::<Result<_, _>>()?;
        Ok(tx)
    }

    pub fn raw(&self) -> &proto::TransactionRaw {
        &self.raw
    }

    /// The canonical protobuf bytes of `raw_data` (`raw_data_hex`).
    pub fn raw_bytes(&self) -> Vec<u8> {
        self.raw.encode_to_vec()
    }

    /// The whole signed message, as `broadcasthex` takes it.
    pub fn to_protobuf(&self) -> Vec<u8> {
        proto::Transaction {
            raw_data: Some(self.raw.clone()),
            signature: self
                .signatures
                .iter()
                .map(|s| s.as_bytes().to_vec())
                .collect(),
            ret: Vec::new(),
        }
        .encode_to_vec()
    }

    pub fn txid(&self) -> TxId {
        TxId(Sha256::digest(self.raw_bytes()).into())
    }

    pub fn action(&self) -> Result<Action, TxError> {
        match self.raw.contract.as_slice() {
            [contract] => Action::from_contract(contract),
            other => Err(TxError::ContractCount(other.len())),
        }
    }

    pub fn owner(&self) -> Result<Address, TxError> {
        self.action()?.owner()
    }

    pub fn signatures(&self) -> &[Signature] {
        &self.signatures
    }

    pub fn expiration(&self) -> i64 {
        self.raw.expiration
    }

    pub fn fee_limit(&self) -> i64 {
        self.raw.fee_limit
    }

    /// Adds a signature without checking it (for transactions read from elsewhere).
    pub fn push_signature(&mut self, signature: Signature) {
        self.signatures.push(signature);
    }

    /// The address behind each signature.
    pub fn signers(&self) -> Result<Vec<Address>, TxError> {
        let txid = self.txid();
        self.signatures
            .iter()
            .enumerate()
            .map(|(index, s)| {
                s.recover(&txid.0)
                    .map_err(|source| TxError::BadSignature { index, source })
            })
            .collect()
    }

    /// Signs as the owner. Refuses a key that is not the owner's (the node would answer
    /// SIGERROR after the user already confirmed), a second signature by the same key, and an
    /// expired transaction.
    pub fn sign(&mut self, key: &PrivateKey) -> Result<(), TxError> {
        let owner = self.owner()?;
        let signer = key.address();
        if signer != owner {
            return Err(TxError::WrongSigner { key: signer, owner });
        }
        if self.signers()?.contains(&signer) {
            return Err(TxError::AlreadySigned(signer));
        }
        let now = now_ms();
        if self.raw.expiration <= now {
            return Err(TxError::Expired {
                expiration: self.raw.expiration,
                now,
            });
        }
        self.signatures.push(key.sign_digest(&self.txid().0));
        Ok(())
    }

    /// java-tron's JSON form: `txID`, `raw_data`, `raw_data_hex`, `signature` (when signed) and
    /// `visible`. With `visible` addresses are base58 and otherwise `41…` hex.
    pub fn to_json(&self, visible: bool) -> serde_json::Value {
        let mut obj = serde_json::Map::new();
        obj.insert("visible".into(), visible.into());
        obj.insert("txID".into(), self.txid().to_hex().into());
        obj.insert(
            "raw_data".into(),
            crate::json::raw_to_json(&self.raw, visible),
        );
        obj.insert("raw_data_hex".into(), hex::encode(self.raw_bytes()).into());
        if !self.signatures.is_empty() {
            obj.insert(
                "signature".into(),
                self.signatures.iter().map(|s| s.to_hex()).collect(),
            );
        }
        serde_json::Value::Object(obj)
    }

    /// Reads java-tron's JSON form, as nodes, TronWeb, tronpy and our API write it, in either
    /// `visible` mode. When `raw_data_hex` or `txID` are present they must agree with `raw_data`,
    /// as TronWeb insists too: otherwise what is shown is not what would be signed.
    pub fn from_json(value: &serde_json::Value) -> Result<Self, TxError> {
        let obj = value.as_object().ok_or_else(|| TxError::WrongType {
            field: "transaction".into(),
            expected: "a JSON object",
        })?;
        // Builder endpoints wrap the transaction: {"result":…, "transaction":{…}}.
        if !obj.contains_key("raw_data")
            && !obj.contains_key("raw_data_hex")
            && let Some(inner) = obj.get("transaction").filter(|v| v.is_object())
        {
            return Self::from_json(inner);
        }
        let raw_hex = match obj.get("raw_data_hex") {
            Some(v) => Some(crate::hexutil::decode(
                "raw_data_hex",
                v.as_str().ok_or_else(|| TxError::WrongType {
                    field: "raw_data_hex".into(),
                    expected: "a hex string",
                })?,
            )?),
            None => None,
        };
        let mut tx = match (obj.get("raw_data"), &raw_hex) {
            (Some(raw), _) => {
                let tx = Self::from_raw(crate::json::raw_from_json(raw)?)?;
                if let Some(bytes) = &raw_hex
                    && *bytes != tx.raw_bytes()
                {
                    return Err(TxError::RawHexMismatch);
                }
                tx
            }
            (None, Some(bytes)) => Self::from_raw_bytes(bytes)?,
            (None, None) => return Err(TxError::MissingField("raw_data".into())),
        };
        if let Some(claimed) = obj.get("txID") {
            let claimed = claimed.as_str().ok_or_else(|| TxError::WrongType {
                field: "txID".into(),
                expected: "a hex string",
            })?;
            // tronpy posts an empty txID before asking the node for one.
            if !claimed.is_empty() {
                let computed = tx.txid().to_hex();
                if !claimed
                    .trim_start_matches("0x")
                    .eq_ignore_ascii_case(&computed)
                {
                    return Err(TxError::TxIdMismatch {
                        claimed: claimed.to_owned(),
                        computed,
                    });
                }
            }
        }
        if let Some(sigs) = obj.get("signature").filter(|v| !v.is_null()) {
            let sigs = sigs.as_array().ok_or_else(|| TxError::WrongType {
                field: "signature".into(),
                expected: "an array of hex strings",
            })?;
            for (index, s) in sigs.iter().enumerate() {
                let field = format!("signature[{index}]");
                let text = s.as_str().ok_or_else(|| TxError::WrongType {
                    field: field.clone(),
                    expected: "a hex string",
                })?;
                let bytes = crate::hexutil::decode(&field, text)?;
                let sig = Signature::from_slice(&bytes)
                    .map_err(|source| TxError::BadSignature { index, source })?;
                tx.signatures.push(sig);
            }
        }
        Ok(tx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The reference vectors A to G. A and B, and block 3111739 that they refer to, come from
    // trustwallet/wallet-core (`tests/chains/Tron/SignerTests.cpp`); C, D and E are real Nile
    // captures printed in java-tron's HTTP API documentation (tronprotocol/documentation-en:
    // createtransaction.md, triggersmartcontract.md, triggerconstantcontract.md); G was made
    // here, and TronWeb 6.5.1 and tronpy 0.6.2 build the same bytes and, but for the v byte,
    // the same signature. K signs A, B and G.
    const K: &str = "2d8f68944bdbfbc0769542fba8fc2d2a3de67393334471624364c7006da2aa54";

    fn header_ab() -> RefBlock {
        RefBlock {
            number: 3111739,
            id: hex::decode("00000000002f7b3bb21ace8d6ac20e7e943ce983aef3f62fe87788cfbcbc93d6")
                .unwrap()
                .try_into()
                .unwrap(),
            timestamp: 1539295479000,
        }
    }

    fn addr(s: &str) -> Address {
        s.parse().unwrap()
    }

    /// Checks a transaction against a reference vector: its bytes, its txID, and the
    /// signature K makes over it (signed regardless of expiry: the vectors expired in 2018).
    fn check_vector(
        mut tx: Transaction,
        raw_hex: &str,
        txid: &str,
        signature: &str,
    ) -> Transaction {
        let key = PrivateKey::from_hex(K).unwrap();
        assert_eq!(hex::encode(tx.raw_bytes()), raw_hex);
        assert_eq!(tx.txid().to_hex(), txid);
        tx.push_signature(key.sign_digest(&tx.txid().0));
        assert_eq!(tx.signatures()[0].to_hex(), signature);
        assert_eq!(tx.signers().unwrap(), vec![key.address()]);
        tx
    }

    #[test]
    fn vector_a_transfer() {
        let key = PrivateKey::from_hex(K).unwrap();
        let tx = TransactionBuilder::new(
            Action::Transfer {
                owner: key.address(),
                to: addr("THTR75o8xXAgCTQqpiot2AFRAjvW1tSbVV"),
                amount: 2_000_000,
            },
            header_ab(),
        )
        .timestamp(1539295479000)
        .expiration(1539331479000)
        .build();
        check_vector(
            tx,
            "0a027b3b2208b21ace8d6ac20e7e40d8abb9bae62c5a67080112630a2d747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e5472616e73666572436f6e747261637412320a15415cd0fb0ab3ce40f3051414c604b27756e69e43db121541521ea197907927725ef36d70f25f850d1659c7c71880897a70d889a4a9e62c",
            "dc6f6d9325ee44ab3c00528472be16e1572ab076aa161ccd12515029869d0451",
            "ede769f6df28aefe6a846be169958c155e23e7e5c9621d2e8dce1719b4d952b63e8a8bf9f00e41204ac1bf69b1a663dacdf764367e48e4a5afcd6b055a747fb200",
        );
    }

    #[test]
    fn vector_b_trigger_with_token_fields() {
        let key = PrivateKey::from_hex(K).unwrap();
        let tx = TransactionBuilder::new(
            Action::Trigger(Trigger {
                owner: key.address(),
                contract: addr("THTR75o8xXAgCTQqpiot2AFRAjvW1tSbVV"),
                call_value: 0,
                data: b"some data".to_vec(),
                call_token_value: 10000,
                token_id: 1,
            }),
            header_ab(),
        )
        .timestamp(1539295479000)
        .expiration(1539331479000)
        .build();
        check_vector(
            tx,
            "0a027b3b2208b21ace8d6ac20e7e40d8abb9bae62c5a77081f12730a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e7472616374123e0a15415cd0fb0ab3ce40f3051414c604b27756e69e43db121541521ea197907927725ef36d70f25f850d1659c7c72209736f6d65206461746128904e300170d889a4a9e62c",
            "9927d3daae10ad001b25ef3c1bb03073c928cc0e0823f6f3ce404c2b03ce3570",
            "21a99aafeabdddfdfae86538df048d120a83eb36bbcf5656595919ba6afddacd0a07d0ba051ae80337613174b109f36cb583b6e46ee5aecf6ffe3392fdbb8a2a01",
        );
    }

    #[test]
    fn vectors_c_d_e_real_captures_decode_and_reencode() {
        for (raw_hex, txid) in [
            (
                "0a0229272208939ece39d08a7abe40d8c483c1dd335a67080112630a2d747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e5472616e73666572436f6e747261637412320a1541dd791d6b49e190062d650e6a23c575510d35f2f912154192ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a18c0843d70d68780c1dd33",
                "6303c7639f591407ef9f34a7ac8c9c9a21151f5a6af21924502515734fc267ab",
            ),
            (
                "0a0228c32208ce6d34028278856940f89cf1c0dd335aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a1541dd791d6b49e190062d650e6a23c575510d35f2f9121541eca9bc828a3005b9a3b909f2cc5c2a54794de05f2244a9059cbb000000000000000000000000088a2bfcb1c7271029fd69a66859d5556089588400000000000000000000000000000000000000000000000000000000000000647089d0edc0dd33900180c2d72f",
                "8c621a0dc9bd4d405b20d0a43143955b9f546f98bbfde1aec295a65b0f925629",
            ),
            (
                "0a0228c022089eabbe133123b34c40d0d6f0c0dd335a8e01081f1289010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412540a1541dd791d6b49e190062d650e6a23c575510d35f2f9121541eca9bc828a3005b9a3b909f2cc5c2a54794de05f222470a08231000000000000000000000000dd791d6b49e190062d650e6a23c575510d35f2f970cb97edc0dd33",
                "cff6488e738ce77f7325572fe0aa2470f87dbf1c95eeeb2c25feec59d5afa35c",
            ),
        ] {
            let tx = Transaction::from_raw_bytes(&hex::decode(raw_hex).unwrap()).unwrap();
            assert_eq!(tx.txid().to_hex(), txid);
            // Through JSON in both modes and back: the same bytes.
            for visible in [false, true] {
                let json = tx.to_json(visible);
                let back = Transaction::from_json(&json).unwrap();
                assert_eq!(hex::encode(back.raw_bytes()), raw_hex);
            }
        }
    }

    #[test]
    fn vector_d_fields() {
        let raw = "0a0228c32208ce6d34028278856940f89cf1c0dd335aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a1541dd791d6b49e190062d650e6a23c575510d35f2f9121541eca9bc828a3005b9a3b909f2cc5c2a54794de05f2244a9059cbb000000000000000000000000088a2bfcb1c7271029fd69a66859d5556089588400000000000000000000000000000000000000000000000000000000000000647089d0edc0dd33900180c2d72f";
        let tx = Transaction::from_raw_bytes(&hex::decode(raw).unwrap()).unwrap();
        let Action::Trigger(t) = tx.action().unwrap() else {
            panic!("not a trigger")
        };
        assert_eq!(t.contract.to_base58(), "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf");
        assert_eq!(tx.fee_limit(), 100_000_000);
        assert_eq!(&t.data[..4], &[0xa9, 0x05, 0x9c, 0xbb]);
    }

    #[test]
    fn vector_g_trc20_transfer_with_fee_limit() {
        let key = PrivateKey::from_hex(K).unwrap();
        let data = hex::decode("a9059cbb000000000000000000000000521ea197907927725ef36d70f25f850d1659c7c700000000000000000000000000000000000000000000000000000000000f4240").unwrap();
        let tx = TransactionBuilder::new(
            Action::Trigger(Trigger {
                owner: key.address(),
                contract: addr("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
                data,
                ..Default::default()
            }),
            header_ab(),
        )
        .timestamp(1539295479000)
        .expiration(1539295539000)
        .fee_limit(100_000_000)
        .build();
        let tx = check_vector(
            tx,
            "0a027b3b2208b21ace8d6ac20e7e40b8dea7a9e62c5aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a15415cd0fb0ab3ce40f3051414c604b27756e69e43db121541a614f803b6fd780986a42c78ec9c7f77e6ded13c2244a9059cbb000000000000000000000000521ea197907927725ef36d70f25f850d1659c7c700000000000000000000000000000000000000000000000000000000000f424070d889a4a9e62c900180c2d72f",
            "4e39cf0004583361661fbede929ebefeab4857b91ba653bed5a096e5b05b8bb4",
            "2ab5d790e26ea09263debc397f70dbad1b4e13dcdc8c87705c0e3432f9a2f1437c1ffc666375bbf43f6b805478720d278ae19006d65595c4f52b62f0e4383d4001",
        );
        // The whole signed message: raw (211 bytes) + one signature = 281 bytes.
        assert_eq!(tx.to_protobuf().len(), 281);
        let back = Transaction::from_protobuf(&tx.to_protobuf()).unwrap();
        assert_eq!(back, tx);
        // TronWeb's form of the same signature (v = 28) is accepted.
        let mut json = tx.to_json(false);
        json["signature"][0] = serde_json::Value::String(
            "2AB5D790E26EA09263DEBC397F70DBAD1B4E13DCDC8C87705C0E3432F9A2F1437C1FFC666375BBF43F6B805478720D278AE19006D65595C4F52B62F0E4383D401C".into(),
        );
        let tw = Transaction::from_json(&json).unwrap();
        assert_eq!(tw.signers().unwrap(), vec![key.address()]);
    }

    #[test]
    fn ref_block_from_block_id() {
        let rb = header_ab();
        assert_eq!(hex::encode(rb.ref_bytes()), "7b3b");
        assert_eq!(hex::encode(rb.ref_hash()), "b21ace8d6ac20e7e");
    }

    fn fresh_tx(owner: Address) -> Transaction {
        let mut rb = header_ab();
        rb.timestamp = now_ms();
        TransactionBuilder::new(
            Action::Transfer {
                owner,
                to: addr("THTR75o8xXAgCTQqpiot2AFRAjvW1tSbVV"),
                amount: 1,
            },
            rb,
        )
        .build()
    }

    #[test]
    fn sign_refuses_the_wrong_key_twice_signing_and_expired() {
        let key = PrivateKey::generate();
        let other = PrivateKey::generate();
        let mut tx = fresh_tx(key.address());
        assert!(matches!(tx.sign(&other), Err(TxError::WrongSigner { .. })));
        tx.sign(&key).unwrap();
        assert_eq!(tx.sign(&key), Err(TxError::AlreadySigned(key.address())));
        let mut old = fresh_tx(key.address());
        old.raw.expiration = 1000;
        assert!(matches!(old.sign(&key), Err(TxError::Expired { .. })));
    }

    #[test]
    fn json_tampering_is_caught() {
        let key = PrivateKey::generate();
        let tx = fresh_tx(key.address());
        let good = tx.to_json(false);

        let mut changed_amount = good.clone();
        changed_amount["raw_data"]["contract"][0]["parameter"]["value"]["amount"] = 2.into();
        assert_eq!(
            Transaction::from_json(&changed_amount),
            Err(TxError::RawHexMismatch)
        );

        let mut wrong_id = good.clone();
        wrong_id["txID"] = "00".repeat(32).into();
        assert!(matches!(
            Transaction::from_json(&wrong_id),
            Err(TxError::TxIdMismatch { .. })
        ));

        // Without the hex, the altered raw_data is simply a different transaction.
        let mut bare = changed_amount.clone();
        bare.as_object_mut().unwrap().remove("raw_data_hex");
        bare.as_object_mut().unwrap().remove("txID");
        let parsed = Transaction::from_json(&bare).unwrap();
        assert_ne!(parsed.txid(), tx.txid());
    }

    #[test]
    fn builder_wrapper_is_unwrapped() {
        let key = PrivateKey::generate();
        let tx = fresh_tx(key.address());
        let wrapped =
            serde_json::json!({"result": {"result": true}, "transaction": tx.to_json(true)});
        assert_eq!(Transaction::from_json(&wrapped).unwrap(), tx);
    }

    #[test]
    fn raw_hex_only_is_enough_and_non_canonical_bytes_are_refused() {
        let key = PrivateKey::generate();
        let tx = fresh_tx(key.address());
        let only_hex = serde_json::json!({ "raw_data_hex": hex::encode(tx.raw_bytes()) });
        assert_eq!(Transaction::from_json(&only_hex).unwrap(), tx);
        // An explicit zero field (ref_block_num = 0) is valid protobuf but not canonical.
        let mut bytes = tx.raw_bytes();
        bytes.extend_from_slice(&[0x18, 0x00]);
        assert!(matches!(
            Transaction::from_raw_bytes(&bytes),
            Err(TxError::Invalid(_))
        ));
    }

    #[test]
    fn create_contract_address() {
        let key = PrivateKey::from_hex(K).unwrap();
        let tx = TransactionBuilder::new(
            Action::Create(Box::new(proto::CreateSmartContract {
                owner_address: key.address().tron_bytes().to_vec(),
                new_contract: Some(proto::SmartContract {
                    origin_address: key.address().tron_bytes().to_vec(),
                    bytecode: vec![0x60, 0x80],
                    name: "Pool".into(),
                    origin_energy_limit: 10_000_000,
                    abi: Some(proto::Abi {
                        entrys: vec![proto::AbiEntry {
                            name: "deposit".into(),
                            r#type: 2,
                            state_mutability: 4,
                            payable: true,
                            inputs: vec![proto::AbiParam {
                                name: "commitment".into(),
                                r#type: "bytes32".into(),
                                ..Default::default()
                            }],
                            ..Default::default()
                        }],
                    }),
                    ..Default::default()
                }),
                ..Default::default()
            })),
            header_ab(),
        )
        .timestamp(1539295479000)
        .fee_limit(1_000_000_000)
        .build();
        for visible in [false, true] {
            let json = tx.to_json(visible);
            assert_eq!(
                json["raw_data"]["contract"][0]["parameter"]["value"]["new_contract"]["abi"]["entrys"]
                    [0]["stateMutability"],
                "Payable"
            );
            assert_eq!(Transaction::from_json(&json).unwrap(), tx);
        }
    }
}
