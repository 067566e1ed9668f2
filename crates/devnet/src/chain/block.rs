//! Blocks as java-tron forms them: a protobuf header whose SHA-256, with the block number in
//! its first 8 bytes, is the block id that transactions refer to (TaPoS).

use prost::Message;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tron::{Address, PrivateKey, TxId};

use crate::serde_hex;

/// `protocol.BlockHeader.raw`, fields in tag order.
#[derive(Clone, PartialEq, Message)]
pub struct BlockHeaderRaw {
    #[prost(int64, tag = "1")]
    pub timestamp: i64,
    #[prost(bytes = "vec", tag = "2")]
    pub tx_trie_root: Vec<u8>,
    #[prost(bytes = "vec", tag = "3")]
    pub parent_hash: Vec<u8>,
    #[prost(int64, tag = "7")]
    pub number: i64,
    #[prost(bytes = "vec", tag = "9")]
    pub witness_address: Vec<u8>,
    #[prost(int32, tag = "10")]
    pub version: i32,
}

/// The block version java-tron 4.8 writes.
pub const BLOCK_VERSION: i32 = 32;

/// A sealed block.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Block {
    pub number: u64,
    /// Milliseconds since the Unix epoch.
    pub timestamp: i64,
    #[serde(with = "serde_hex::array")]
    pub parent: [u8; 32],
    #[serde(with = "serde_hex::array")]
    pub tx_root: [u8; 32],
    pub witness: Address,
    #[serde(with = "serde_hex::bytes")]
    pub signature: Vec<u8>,
    #[serde(with = "serde_hex::array")]
    pub id: [u8; 32],
    /// The transactions in execution order.
    pub txs: Vec<TxId>,
}

impl Block {
    /// Seals a block: computes the transaction root and the id, and signs the header.
    pub fn seal(
        number: u64,
        timestamp: i64,
        parent: [u8; 32],
        txs: Vec<TxId>,
        tx_hashes: &[[u8; 32]],
        witness: &PrivateKey,
    ) -> Block {
        let mut block = Block {
            number,
            timestamp,
            parent,
            tx_root: merkle_root(tx_hashes),
            witness: witness.address(),
            signature: Vec::new(),
            id: [0; 32],
            txs,
        };
        let raw = block.header_raw().encode_to_vec();
        let digest: [u8; 32] = Sha256::digest(&raw).into();
        block.id = block_id(number, &digest);
        block.signature = witness.sign_digest(&digest).as_bytes().to_vec();
        block
    }

    pub fn header_raw(&self) -> BlockHeaderRaw {
        BlockHeaderRaw {
            timestamp: self.timestamp,
            tx_trie_root: self.tx_root.to_vec(),
            parent_hash: self.parent.to_vec(),
            number: self.number as i64,
            witness_address: self.witness.tron_bytes().to_vec(),
            version: BLOCK_VERSION,
        }
    }

    /// `ref_block_bytes` of a transaction referring to this block.
    pub fn ref_bytes(&self) -> [u8; 2] {
        [self.id[6], self.id[7]]
    }

    /// `ref_block_hash` of a transaction referring to this block.
    pub fn ref_hash(&self) -> [u8; 8] {
        self.id[8..16].try_into().expect("8 bytes")
    }

    pub fn ref_block(&self) -> tron::RefBlock {
        tron::RefBlock {
            number: self.number as i64,
            id: self.id,
            timestamp: self.timestamp,
        }
    }
}

/// java-tron's block id: the number, big-endian, over the first 8 bytes of the header hash.
pub fn block_id(number: u64, header_hash: &[u8; 32]) -> [u8; 32] {
    let mut id = *header_hash;
    id[..8].copy_from_slice(&number.to_be_bytes());
    id
}

/// A binary SHA-256 Merkle root over the transactions' hashes (an odd node is carried up);
/// 32 zero bytes for an empty block.
fn merkle_root(leaves: &[[u8; 32]]) -> [u8; 32] {
    if leaves.is_empty() {
        return [0; 32];
    }
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| match pair {
                [a, b] => {
                    let mut h = Sha256::new();
                    h.update(a);
                    h.update(b);
                    h.finalize().into()
                }
                [a] => *a,
                _ => unreachable!("chunks of two"),
            })
            .collect();
    }
    level[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_id_matches_the_reference_vector() {
        // Block 3111739's header and id: the reference block of vectors A and B in
        // crates/tron/src/transaction.rs (from trustwallet/wallet-core's Tron SignerTests.cpp).
        let raw = BlockHeaderRaw {
            timestamp: 1539295479000,
            tx_trie_root: hex::decode(
                "64288c2db0641316762a99dbb02ef7c90f968b60f9f2e410835980614332f86d",
            )
            .unwrap(),
            parent_hash: hex::decode(
                "00000000002f7b3af4f5f8b9e23a30c530f719f165b742e7358536b280eead2d",
            )
            .unwrap(),
            number: 3111739,
            witness_address: hex::decode("415863f6091b8e71766da808b1dd3159790f61de7d").unwrap(),
            version: 3,
        };
        let digest: [u8; 32] = Sha256::digest(raw.encode_to_vec()).into();
        assert_eq!(
            hex::encode(digest),
            "4330ecccd256c080b21ace8d6ac20e7e943ce983aef3f62fe87788cfbcbc93d6"
        );
        assert_eq!(
            hex::encode(block_id(3111739, &digest)),
            "00000000002f7b3bb21ace8d6ac20e7e943ce983aef3f62fe87788cfbcbc93d6"
        );
    }

    #[test]
    fn merkle_root_pairs_and_carries() {
        let a = [1u8; 32];
        let b = [2u8; 32];
        let c = [3u8; 32];
        assert_eq!(merkle_root(&[]), [0; 32]);
        assert_eq!(merkle_root(&[a]), a);
        let ab: [u8; 32] = Sha256::digest([a, b].concat()).into();
        let abc: [u8; 32] = Sha256::digest([ab, c].concat()).into();
        assert_eq!(merkle_root(&[a, b, c]), abc);
    }
}
