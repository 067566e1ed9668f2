//! Withdrawing through a relayer, the client's side (`tronpool relay withdraw`): read the
//! relayer's terms, refuse a fee above the cap, prove for the relayer's address and fee,
//! check the proof locally, ask for confirmation, hand the proof to the relayer, and follow
//! the transaction to its receipt on our own node.
//!
//! The relayer is a remote one ([`RelayerClient`]) or, on the devnet, one running in this
//! process ([`Relayer`]), which makes the same checks a server makes.

use std::sync::Arc;
use std::time::Duration;

use alloy_primitives::U256;
use tron::{Address, TxId};

use crate::error::{Error, Kind, Result};
use crate::service::builders;
use crate::service::builders::{SpentCheck, withdraw_calldata};
use crate::service::chain::Chain;
use crate::service::desk::Desk;
use crate::service::format::six_decimals_text;
use crate::service::guidance::RefundBy;
use crate::service::notes::Payout;
use crate::service::pool_state::SponsorShare;
use crate::service::pools;
use crate::service::progress::Progress;
use crate::service::relayer::Relayer;
use crate::service::relayer_client::RelayerClient;
use crate::service::relayer_fees::{Pricing, RELAY_BYTES, Resources};
use crate::service::submit;
use crate::service::submit::Outcome;
use crate::service::wire::FeeQuote;
use crate::service::wire::{RelayRequest, RelayerStatus};
use crate::service::withdraw::{DryRun, GivenNote, Withdrawn, prove};
use crate::store::jobs::JobState;

/// The default cap on a relayer's fee, as a share of the pool's denomination.
pub(crate) const DEFAULT_MAX_FEE_PERCENT: u64 = 25;
/// How often to ask a relayer about its job: a block is 3 s, and a server allows a client
/// 120 requests a minute.
const FOLLOW_POLL: Duration = Duration::from_secs(1);
/// How long to follow a relayed transaction: relayers sign for a couple of minutes.
const FOLLOW_MS: i64 = 3 * 60 * 1000;
/// How long an in-process relayer waits for its broadcast before answering.
const FOLLOW_WAIT: Duration = Duration::from_secs(30);

/// The relayer a client talks to.
pub(crate) enum RelayTarget {
    Remote(RelayerClient),
    /// The devnet's own, in this process, relaying on its own handle of the chain (its
    /// broadcast goes on in the background after it answers).
    InProcess {
        relayer: Arc<Relayer>,
        chain: Arc<Chain>,
    },
}

impl RelayTarget {
    pub fn describe(&self) -> String {
        match self {
            RelayTarget::Remote(client) => format!("the relayer at {}", client.url()),
            RelayTarget::InProcess { relayer, .. } => {
                format!("the devnet's relayer {}", relayer.address())
            }
        }
    }

    /// The relayer's status; an in-process relayer reads it from `chain` at `pricing`.
    pub async fn status(&self, chain: &Chain, pricing: &Pricing) -> Result<RelayerStatus> {
        match self {
            RelayTarget::Remote(client) => client.status().await,
            RelayTarget::InProcess { relayer, .. } => relayer.status(chain, pricing).await,
        }
    }

    /// The relayer's address and its quote for a pool, after checking it serves our network.
    async fn terms(
        &self,
        chain: &Chain,
        pricing: &Pricing,
        denomination: u64,
    ) -> Result<(Address, FeeQuote)> {
        let status = self.status(chain, pricing).await?;
        if status.network != chain.network {
            return Err(Error::usage(format!(
                "{} serves network `{}`, not `{}`",
                self.describe(),
                status.network,
                chain.network
            )));
        }
        let address = match (status.enabled, status.address) {
            (true, Some(address)) => address,
            _ => {
                return Err(Error::Disabled(format!(
                    "{} does not relay withdrawals",
                    self.describe()
                )));
            }
        };
        Ok((address, status.quote(denomination)?.clone()))
    }

    /// Follows a relayed transaction to its receipt: through the relayer's job while it is
    /// not in a block (a relayer that cannot say is skipped), then on our own node, which
    /// alone decides whether the note was spent.
    async fn follow(&self, chain: &Chain, txid: &TxId, deadline: i64) -> Result<Outcome> {
        if let RelayTarget::Remote(client) = self {
            while tron::transaction::now_ms() < deadline {
                match client.job(txid).await {
                    Ok(job) if job.state == JobState::Failed => {
                        return Err(Error::Refused(format!(
                            "the relayed withdrawal {txid} failed: {}",
                            job.error.unwrap_or_else(|| "no reason given".into())
                        )));
                    }
                    Ok(job) if matches!(job.state, JobState::Included | JobState::Confirmed) => {
                        break;
                    }
                    Ok(_) => {}
                    // An older relayer without the jobs endpoint: watch the chain instead.
                    Err(e) if e.kind() == Kind::NotFound || e.kind() == Kind::Disabled => break,
                    Err(e) => tracing::debug!(error = %e, "asking the relayer about its job"),
                }
                tokio::time::sleep(FOLLOW_POLL).await;
            }
        }
        submit::wait_for(chain, txid, deadline).await
    }
}

/// The most fee to accept: `max_fee` when given (`--max-fee`, or `max_fee` in the network's
/// config), else twice what the relay costs at the chain's prices by this client's own price
/// source, and never more than [`DEFAULT_MAX_FEE_PERCENT`] of the pool. Answers the cap and
/// why it is that.
///
/// A client that cannot price the relay (no price source on a real network, or one that does
/// not answer) refuses rather than fall back on the percentage alone: in the 10,000 USDT pool
/// that would accept a 2,500 USDT fee from any relayer that asked for it.
async fn fee_cap(
    chain: &Chain,
    pricing: &Pricing,
    denomination: u64,
    refund: i64,
    max_fee: Option<U256>,
) -> Result<(U256, String)> {
    if let Some(cap) = max_fee {
        return Ok((cap, "--max-fee, or max_fee in the config".into()));
    }
    let share = chain
        .denomination(denomination)?
        .percent(DEFAULT_MAX_FEE_PERCENT);
    let terms = pricing
        .terms(chain, Resources::default())
        .await
        .map_err(|e| {
            Error::usage(format!(
                "this client cannot price the relay ({e}), so it cannot tell an honest fee \
                 from a greedy one: pass --max-fee USDT (the most fee you accept), or set \
                 `max_fee` or a working `price_source` for this network in the config file"
            ))
        })?;
    // What a relay costs a relayer with no stake in a pool nobody sponsors: the cap guards
    // against greed, it is not the price, so it allows for any honest one.
    let cost = terms.break_even(
        terms.policy.expected_energy,
        RELAY_BYTES,
        refund,
        &SponsorShare::NONE,
    );
    let twice = cost * U256::from(2u8);
    Ok(if twice < share {
        (
            twice,
            format!(
                "twice the {} USDT a relay costs at {} sun per energy and {} USDT per TRX",
                six_decimals_text(cost),
                terms.energy_fee,
                terms.price.price.usdt_per_trx_text()
            ),
        )
    } else {
        (share, format!("{DEFAULT_MAX_FEE_PERCENT}% of the pool"))
    })
}

/// A relayed withdrawal as the user asked for it.
pub(crate) struct RelayWithdrawal {
    pub note: GivenNote,
    pub recipient: Address,
    /// TRX (sun) the relayer sends along to the recipient; its fee covers it.
    pub refund: U256,
    /// The most fee to accept (`None`: twice what the relay costs by this client's price
    /// source, at most [`DEFAULT_MAX_FEE_PERCENT`] of the pool; refused when it cannot price).
    pub max_fee: Option<U256>,
    /// Sync, prove, check and simulate; send nothing.
    pub dry_run: bool,
}

/// Where a relayed withdrawal ended.
pub(crate) enum RelayWithdrawn {
    DryRun(DryRun),
    Withdrawn(Withdrawn),
}

impl RelayWithdrawal {
    /// Runs the withdrawal through `relayer`. `pricing` prices the relay by this client's
    /// own reckoning (for the fee cap) and is the in-process relayer's.
    pub async fn run(
        mut self,
        desk: Desk<'_>,
        relayer: &RelayTarget,
        pricing: &Pricing,
        progress: &Progress,
    ) -> Result<RelayWithdrawn> {
        let Desk { chain, store, .. } = desk;
        let denomination = self.note.note.meta().denomination();
        let pool = chain.pool_address(denomination)?;
        let refund_i64 = i64::try_from(self.refund)
            .map_err(|_| Error::usage("--refund is more TRX than exists"))?;
        let (address, quote) = relayer.terms(chain, pricing, denomination).await?;
        let fee = quote.fee_with_refund(refund_i64)?;
        let (cap, why) = fee_cap(chain, pricing, denomination, refund_i64, self.max_fee).await?;
        if fee > cap {
            return Err(Error::Refused(format!(
                "{} asks a fee of {} USDT for the {denomination} USDT pool, more than the {} \
                 USDT accepted ({why}); pass --max-fee to accept more, or use another relayer",
                relayer.describe(),
                six_decimals_text(fee),
                six_decimals_text(cap)
            )));
        }
        progress.note(format!(
            "relaying through {} for a fee of {} USDT (at most {} accepted)",
            relayer.describe(),
            six_decimals_text(fee),
            six_decimals_text(cap)
        ));
        let payout = Payout {
            from: address,
            recipient: self.recipient,
            relayer: Some(address),
            fee,
            refund: self.refund,
        };
        let prepared = prove(desk, &self.note, payout, RefundBy::Relayer, progress).await?;
        let proved = &prepared.proved;
        // Verified here too, before a relayer sees it: a bad proof is our bug, not theirs.
        let refund_sun =
            builders::check_withdrawal(chain, &proved.request, SpentCheck::CheckedLocally).await?;
        if self.dry_run {
            let call = builders::prepare_call(
                chain,
                address,
                pool,
                refund_sun,
                withdraw_calldata(&proved.request),
            )
            .await?;
            call.check_succeeds("the withdrawal")?;
            return Ok(RelayWithdrawn::DryRun(DryRun::new(prepared, &call)));
        }
        let id = self.note.remember(store, prepared.pool, "withdraw")?;
        progress
            .confirm(format!(
                "Withdraw {denomination} USDT with note {id} to {} through {} (fee {} USDT)?",
                self.recipient,
                relayer.describe(),
                six_decimals_text(fee)
            ))
            .await?;
        let request = RelayRequest {
            denomination,
            proof: proved.request.proof,
            root: proved.request.root,
            nullifier_hash: proved.request.nullifier_hash,
            recipient: self.recipient,
            fee: Some(fee),
            refund: Some(self.refund),
        };
        let relayed = match relayer {
            RelayTarget::Remote(client) => client.withdraw(&request).await?,
            RelayTarget::InProcess { relayer, chain } => {
                relayer.relay(chain, pricing, &request, FOLLOW_WAIT).await?
            }
        };
        let txid = relayed.txid;
        progress.note(format!("the relayer sent {txid}; waiting for it"));
        let deadline = tron::transaction::now_ms() + FOLLOW_MS;
        let outcome = relayer.follow(chain, &txid, deadline).await?;
        // Our deadline, not the transaction's expiry (the relayer chose that): say so.
        if matches!(outcome, Outcome::Expired) {
            return Err(Error::Refused(format!(
                "the relayed withdrawal {txid} is not in a block after {} s; `tronpool notes \
                 check {id}` tells whether the note was spent",
                FOLLOW_MS / 1000
            )));
        }
        outcome.settle("the relayed withdrawal", &txid)?;
        store.mark_withdrawn(id, Some(&txid.to_hex()), Some(&self.recipient.to_base58()))?;
        pools::pool_changed(chain, denomination);
        let received = chain.denomination(denomination)?.base_units() - fee;
        Ok(RelayWithdrawn::Withdrawn(Withdrawn {
            txid,
            note_id: id,
            denomination,
            recipient: self.recipient,
            relayer: Some(address),
            received_raw: received.to_string(),
            fee_raw: fee.to_string(),
            refund_sun: self.refund.to_string(),
            guidance: prepared.guidance,
            fee,
        }))
    }
}
