//! Saving the chain to a file and loading it back: accounts with code and storage, blocks,
//! transactions with receipts, contract metadata. Indexes (TaPoS table, events) are rebuilt
//! on load rather than stored.

use std::collections::HashMap;
use std::path::Path;

use alloy_primitives::{B256, U256};
use prost::Message;
use revm::bytecode::Bytecode;
use revm::state::AccountInfo;
use serde::{Deserialize, Serialize};
use tron::proto::SmartContract;
use tron::{Address, PrivateKey, Transaction, TxId};

use super::block::Block;
use super::evm::Db;
use super::receipt::TxInfo;
use super::{AccountMeta, ChainData, ChainParams, EventRef, Ledger, Mined, TAPOS_WINDOW};
use crate::serde_hex;

/// Bumped whenever the layout changes; older files are refused with a clear message.
pub const STATE_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct StateFile {
    version: u32,
    chain_id: u64,
    params: ChainParams,
    time_offset_ms: i64,
    accounts: Vec<SavedAccount>,
    metas: Vec<(Address, AccountMeta)>,
    blocks: Vec<Block>,
    txs: Vec<SavedTx>,
    #[serde(with = "hex_list")]
    contracts: Vec<Vec<u8>>,
    /// Non-zero dynamic-energy factors (absent in files from before dynamic energy).
    #[serde(default)]
    energy_factors: Vec<(Address, i64)>,
    /// Whatever the owner of the chain wants kept with it (the genesis deployment).
    extra: serde_json::Value,
}

#[derive(Serialize, Deserialize)]
struct SavedAccount {
    address: Address,
    /// In sun, decimal.
    balance: String,
    #[serde(with = "serde_hex::bytes")]
    code: Vec<u8>,
    storage: Vec<(String, String)>,
}

#[derive(Serialize, Deserialize)]
struct SavedTx {
    #[serde(with = "serde_hex::bytes")]
    tx: Vec<u8>,
    info: TxInfo,
}

mod hex_list {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(items: &[Vec<u8>], s: S) -> Result<S::Ok, S::Error> {
        items
            .iter()
            .map(hex::encode)
            .collect::<Vec<_>>()
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u8>>, D::Error> {
        Vec::<String>::deserialize(d)?
            .into_iter()
            .map(|t| hex::decode(t).map_err(serde::de::Error::custom))
            .collect()
    }
}

/// Why a state file could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("cannot {action} {path}: {source}")]
    Io {
        action: &'static str,
        path: String,
        source: std::io::Error,
    },
    #[error("{path} is not a devnet state file: {detail}")]
    Format { path: String, detail: String },
}

impl Ledger {
    /// Writes the chain to `path` atomically (a temporary file renamed over it), so a crash
    /// while saving leaves the previous state intact. Seals the block being built first.
    pub fn save(&mut self, path: &Path, extra: serde_json::Value) -> Result<(), StateError> {
        if self.building.is_some() {
            self.mine();
        }
        let file = to_file(self, extra);
        let text = serde_json::to_vec(&file).expect("state serialises");
        let io = |action, source| StateError::Io {
            action,
            path: path.display().to_string(),
            source,
        };
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| io("create the folder of", e))?;
        let tmp = dir.join(format!(
            ".{}.tmp-{}",
            path.file_name().and_then(|n| n.to_str()).unwrap_or("state"),
            std::process::id()
        ));
        std::fs::write(&tmp, &text).map_err(|e| io("write", e))?;
        std::fs::File::open(&tmp)
            .and_then(|f| f.sync_all())
            .map_err(|e| io("sync", e))?;
        std::fs::rename(&tmp, path).map_err(|e| io("replace", e))?;
        Ok(())
    }
    /// Reads a chain saved by [`Ledger::save`], with the `extra` stored alongside.
    pub fn load(
        path: &Path,
        witness: PrivateKey,
    ) -> Result<(Ledger, serde_json::Value), StateError> {
        let display = path.display().to_string();
        let text = std::fs::read(path).map_err(|source| StateError::Io {
            action: "read",
            path: display.clone(),
            source,
        })?;
        let bad = |detail: String| StateError::Format {
            path: display.clone(),
            detail,
        };
        let file: StateFile = serde_json::from_slice(&text).map_err(|e| bad(e.to_string()))?;
        if file.version != STATE_VERSION {
            return Err(bad(format!(
                "it has version {}, this devnet reads version {STATE_VERSION}",
                file.version
            )));
        }
        if file.blocks.is_empty() {
            return Err(bad("it has no genesis block".into()));
        }

        let mut db = Db::default();
        for account in &file.accounts {
            let balance: U256 = account
                .balance
                .parse()
                .map_err(|_| bad(format!("bad balance for {}", account.address)))?;
            let key = alloy_primitives::Address::from(account.address);
            let mut info = AccountInfo::from_balance(balance);
            if !account.code.is_empty() {
                let code = Bytecode::new_raw(account.code.clone().into());
                info = info.with_code(code);
            }
            db.insert_account_info(key, info);
            for (slot, value) in &account.storage {
                let slot: U256 = slot
                    .parse()
                    .map_err(|_| bad(format!("bad storage slot {slot}")))?;
                let value: U256 = value
                    .parse()
                    .map_err(|_| bad(format!("bad storage value {value}")))?;
                db.insert_account_storage(key, slot, value)
                    .expect("the in-memory database cannot fail");
            }
        }
        for block in &file.blocks {
            db.cache
                .block_hashes
                .insert(U256::from(block.number), B256::from(block.id));
        }

        let positions: HashMap<TxId, usize> = file
            .blocks
            .iter()
            .flat_map(|b| b.txs.iter().enumerate().map(|(i, id)| (*id, i)))
            .collect();
        let mut txs = HashMap::new();
        let mut events: HashMap<Address, Vec<EventRef>> = HashMap::new();
        for saved in file.txs {
            let tx = Transaction::from_protobuf(&saved.tx).map_err(|e| bad(e.to_string()))?;
            for (log_index, log) in saved.info.logs.iter().enumerate() {
                events
                    .entry(Address::from_evm(log.address))
                    .or_default()
                    .push(EventRef {
                        txid: saved.info.id,
                        log_index,
                        topic0: log.topics.first().copied(),
                        block: saved.info.block_number,
                        tx_position: positions.get(&saved.info.id).copied().unwrap_or(0),
                    });
            }
            txs.insert(
                saved.info.id,
                Mined {
                    tx,
                    info: saved.info,
                },
            );
        }
        for refs in events.values_mut() {
            refs.sort_by_key(EventRef::position);
        }
        let mut contracts = HashMap::new();
        for bytes in &file.contracts {
            let contract =
                SmartContract::decode(bytes.as_slice()).map_err(|e| bad(e.to_string()))?;
            let address = Address::from_tron_bytes(&contract.contract_address)
                .map_err(|e| bad(e.to_string()))?;
            contracts.insert(address, contract);
        }
        let skip = file.blocks.len().saturating_sub(TAPOS_WINDOW as usize);
        let recent = file.blocks[skip..]
            .iter()
            .map(|b| (b.ref_bytes(), b.ref_hash()))
            .collect();
        let data = ChainData {
            params: file.params,
            chain_id: file.chain_id,
            blocks: file.blocks,
            txs,
            contracts,
            accounts: file.metas.into_iter().collect(),
            events,
            recent,
            time_offset_ms: file.time_offset_ms,
            energy_factors: file.energy_factors.into_iter().collect(),
        };
        Ok((Ledger::from_parts(witness, db, data), file.extra))
    }
}

/// The chain as its state file holds it.
fn to_file(ledger: &Ledger, extra: serde_json::Value) -> StateFile {
    let db = ledger.db();
    let mut accounts: Vec<SavedAccount> = db
        .cache
        .accounts
        .iter()
        .map(|(address, account)| {
            let code = db
                .cache
                .contracts
                .get(&account.info.code_hash)
                .map(|c| c.original_bytes().to_vec())
                .unwrap_or_default();
            let mut storage: Vec<(String, String)> = account
                .storage
                .iter()
                .filter(|(_, v)| !v.is_zero())
                .map(|(k, v)| (format!("{k:#x}"), format!("{v:#x}")))
                .collect();
            storage.sort();
            SavedAccount {
                address: Address::from(*address),
                balance: account.info.balance.to_string(),
                code,
                storage,
            }
        })
        .collect();
    accounts.sort_by_key(|a| a.address);
    let mut metas: Vec<(Address, AccountMeta)> = ledger
        .data
        .accounts
        .iter()
        .map(|(a, m)| (*a, m.clone()))
        .collect();
    metas.sort_by_key(|(a, _)| *a);
    let txs = ledger
        .data
        .blocks
        .iter()
        .flat_map(|b| b.txs.iter())
        .filter_map(|id| ledger.data.txs.get(id))
        .map(|m| SavedTx {
            tx: m.tx.to_protobuf(),
            info: m.info.clone(),
        })
        .collect();
    let mut contracts: Vec<(&Address, &SmartContract)> = ledger.data.contracts.iter().collect();
    contracts.sort_by_key(|(a, _)| **a);
    StateFile {
        version: STATE_VERSION,
        chain_id: ledger.data.chain_id,
        params: ledger.data.params.clone(),
        time_offset_ms: ledger.data.time_offset_ms,
        accounts,
        metas,
        blocks: ledger.data.blocks.clone(),
        txs,
        contracts: contracts.iter().map(|(_, c)| c.encode_to_vec()).collect(),
        energy_factors: {
            let mut factors: Vec<(Address, i64)> = ledger
                .data
                .energy_factors
                .iter()
                .map(|(a, f)| (*a, *f))
                .collect();
            factors.sort();
            factors
        },
        extra,
    }
}
