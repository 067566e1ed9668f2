//! A tree extended on a blocking thread while the next page of leaves is fetched: a first
//! sync from a server hashes a million leaves during its downloads rather than after them.

use tokio::task::JoinHandle;
use zk::tree::MerkleTree;

use crate::error::{Error, Result};
use crate::store::trees::Leaf;

/// The cached tree's tail, grown by each page as it arrives.
pub(super) struct Growing {
    /// The tree as far as the pages handed in, when no extension is running.
    tree: Option<MerkleTree>,
    /// The extension by the latest page.
    running: Option<JoinHandle<std::result::Result<MerkleTree, String>>>,
    /// The index the next leaf must have.
    next: u32,
    /// The leaves the tree is grown to (the pool's inserted ones); later ones are queued
    /// deposits, which are not in its tree.
    limit: u32,
    /// Leaves arrived out of order: the sync refuses them (`settle`), so nothing is built.
    broken: bool,
}

impl Growing {
    pub(super) fn new(tail: MerkleTree, limit: u32) -> Self {
        Growing {
            next: tail.len() as u32,
            limit,
            tree: Some(tail),
            running: None,
            broken: false,
        }
    }

    /// Hands in a page: its leaves from the next index on are appended on a blocking thread,
    /// once the previous page's are. Leaves before the next index are skipped (as `settle`
    /// skips them); a gap stops the building.
    pub(super) async fn push(&mut self, leaves: &[Leaf]) -> Result<()> {
        if self.broken {
            return Ok(());
        }
        let mut words = Vec::with_capacity(leaves.len());
        let first = self.next;
        for leaf in leaves.iter().skip_while(|l| l.index < first) {
            if self.next >= self.limit {
                break;
            }
            if leaf.index != self.next {
                self.broken = true;
                return Ok(());
            }
            words.push(leaf.commitment);
            self.next += 1;
        }
        let mut tree = self.settled().await?;
        self.running = Some(tokio::task::spawn_blocking(move || {
            let fresh = words
                .iter()
                .map(|w| zk::field::from_be_bytes(w, "a deposit's commitment"))
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?;
            tree.extend(&fresh).map_err(|e| e.to_string())?;
            Ok(tree)
        }));
        Ok(())
    }

    /// The tree with every page handed in; `None` when they were out of order.
    pub(super) async fn finish(mut self) -> Result<Option<MerkleTree>> {
        let tree = self.settled().await?;
        Ok((!self.broken).then_some(tree))
    }

    async fn settled(&mut self) -> Result<MerkleTree> {
        if let Some(running) = self.running.take() {
            let tree = running
                .await
                .map_err(|e| Error::task("building the tree", e))?
                .map_err(Error::Refused)?;
            self.tree = Some(tree);
        }
        Ok(self.tree.take().expect("a tree when nothing runs"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(index: u32) -> Leaf {
        let mut commitment = [0u8; 32];
        commitment[28..].copy_from_slice(&(index * 7 + 1).to_be_bytes());
        Leaf {
            index,
            commitment,
            block_timestamp: 0,
            txid: String::new(),
        }
    }

    fn whole(n: u32) -> MerkleTree {
        let leaves: Vec<_> = (0..n)
            .map(|i| zk::field::from_be_bytes(&leaf(i).commitment, "t").unwrap())
            .collect();
        MerkleTree::from_leaves(&leaves).unwrap()
    }

    #[tokio::test]
    async fn pages_grow_the_tail_into_the_tree_the_leaves_make() {
        let mut growing = Growing::new(whole(3), u32::MAX);
        let page = |range: std::ops::Range<u32>| range.map(leaf).collect::<Vec<_>>();
        growing.push(&page(3..10)).await.unwrap();
        // A page that repeats leaves already handed in: they are skipped.
        growing.push(&page(8..20)).await.unwrap();
        growing.push(&[]).await.unwrap();
        let grown = growing.finish().await.unwrap().unwrap();
        assert_eq!(grown, whole(20));

        // Leaves past the limit (a queued pool's deposits not inserted yet) stay out.
        let mut limited = Growing::new(whole(3), 12);
        limited.push(&page(3..10)).await.unwrap();
        limited.push(&page(10..20)).await.unwrap();
        assert_eq!(limited.finish().await.unwrap().unwrap(), whole(12));

        // A gap builds nothing: the sync refuses such leaves itself.
        let mut gapped = Growing::new(whole(3), u32::MAX);
        gapped.push(&page(4..6)).await.unwrap();
        assert!(gapped.finish().await.unwrap().is_none());

        // A commitment that is not a field element is the source's fault.
        let mut bad = Growing::new(whole(0), u32::MAX);
        let mut not_a_field_element = leaf(0);
        not_a_field_element.commitment = [0xff; 32];
        bad.push(&[not_a_field_element]).await.unwrap();
        assert!(matches!(bad.finish().await, Err(Error::Refused(_))));
    }
}
