//! One relay, from request to broadcast: the checks in order, cheapest first, the job
//! recorded with its reservation before anything is sent, and the broadcast detached from
//! the request.

use std::sync::Arc;
use std::time::Duration;

use alloy_primitives::U256;
use tron::Address;

use super::{APPROVAL_TURN, RELAY_EXPIRATION_MS, Relayer, Standing};
use crate::error::{Error, Kind, Result};
use crate::service::builders;
use crate::service::builders::{WithdrawRequest, withdraw_calldata};
use crate::service::chain::Chain;
use crate::service::format::{six_decimals_text, word_hex};
use crate::service::inputs::USDT_UNIT;
use crate::service::journal::{Journal, Purpose};
use crate::service::pool_state::SponsorShare;
use crate::service::pools;
use crate::service::relayer_fees::{BandwidthSource, Pricing, Terms};
use crate::service::sponsor;
use crate::service::submit::Broadcast;
use crate::service::wire::{RelayRequest, Relayed};
use crate::store::jobs::{Job, JobState, Reservation};
use crate::units::format_trx;

impl Relayer {
    /// Checks, signs, records and broadcasts one withdrawal; answers with its txid once the
    /// node has taken it, or after `wait` with the broadcast still under way (it carries on
    /// without us: the job is recorded and the watcher finishes it).
    pub async fn relay(
        self: &Arc<Self>,
        chain: &Arc<Chain>,
        pricing: &Pricing,
        request: &RelayRequest,
        wait: Duration,
    ) -> Result<Relayed> {
        // Without its node the relayer cannot work at all: that is the relayer being
        // unavailable (503), whatever the node's failure, and nothing was sent.
        self.relay_checked(chain, pricing, request, wait)
            .await
            .map_err(|e| match e.kind() {
                // The client is told what failed, not where: the node's URL stays in the log.
                Kind::Unavailable => {
                    tracing::warn!(error = %e, "the relayer's node is unavailable");
                    Error::Disabled(format!(
                        "the relayer cannot reach its node, so nothing was sent; try later: {}",
                        e.public_message()
                    ))
                }
                _ => e,
            })
    }

    async fn relay_checked(
        self: &Arc<Self>,
        chain: &Arc<Chain>,
        pricing: &Pricing,
        request: &RelayRequest,
        wait: Duration,
    ) -> Result<Relayed> {
        let denomination = request.denomination;
        let pool = chain.pool_address(denomination)?;
        let nullifier_hex = word_hex(&request.nullifier_hash);
        self.refuse_relayed(&pool, &nullifier_hex)?;
        let refund = request.refund.unwrap_or(U256::ZERO);
        let refund_sun = i64::try_from(refund)
            .ok()
            .filter(|r| *r <= self.config.max_refund)
            .ok_or_else(|| {
                Error::Refused(format!(
                    "refund {refund} sun is more than this relayer forwards ({})",
                    format_trx(self.config.max_refund)
                ))
            })?;

        // One approval at a time, from pricing to the recorded job (with its reservation):
        // this process's lock, then the database's turn, which every replica on a shared
        // database takes (nothing on SQLite, where this process is the only one).
        let turn = self.approving.lock().await;
        let shared_turn = self.coordination.turn(APPROVAL_TURN).await?;
        // A copy of this request that held the turn before us may have recorded the note.
        self.refuse_relayed(&pool, &nullifier_hex)?;
        let Standing {
            terms, reserved, ..
        } = self.standing(chain, pricing).await?;
        // The fee asked is the quote's, from the sponsorship as quoted; what the relay will
        // really cost is checked below against the sponsor's stake as it is now.
        let quoted_sponsor = sponsor::quoted_sponsor(chain, denomination)
            .await
            .for_caller(self.address());
        let payout = U256::from(denomination) * U256::from(USDT_UNIT);
        let required = terms.required_fee(denomination, refund_sun, &quoted_sponsor);
        if required > payout {
            return Err(Error::Disabled(format!(
                "relaying from the {denomination} USDT pool costs {} USDT at today's prices, \
                 more than it pays out",
                six_decimals_text(required)
            )));
        }
        let fee = request.fee.unwrap_or(required);
        // A quote published within QUOTE_HOLD is honoured as long as it pays for the relay
        // (`check_cost` below); otherwise the price of this moment.
        let asked = self
            .honoured(denomination, refund_sun)
            .map_or(required, |held| held.min(required));
        if fee < asked {
            return Err(Error::Refused(format!(
                "fee {fee} is below this relayer's fee of {required} for the {denomination} USDT \
                 pool with a refund of {refund} sun; prove again with fee {required}"
            )));
        }
        let withdrawal = WithdrawRequest {
            from: self.address(),
            denomination,
            proof: request.proof,
            root: request.root,
            nullifier_hash: request.nullifier_hash,
            recipient: request.recipient,
            relayer: Some(self.address()),
            fee,
            refund,
        };
        // Spent (409), unknown root (422), and the proof for our address and this fee (422).
        builders::check_withdrawal(
            chain,
            &withdrawal,
            crate::service::builders::SpentCheck::AskNode,
        )
        .await?;
        if refund_sun > 0 && !self.config.allow_contract_refund {
            self.refuse_contract_recipient(chain, request.recipient)
                .await?;
        }
        let mut call = builders::prepare_call(
            chain,
            self.address(),
            pool,
            refund_sun,
            withdraw_calldata(&withdrawal),
        )
        .await?;
        call.check_succeeds("the withdrawal")?;
        let (energy, sponsor) = (call.energy, call.sponsor);
        // The balance as the node has it, less what unfinished jobs may still take from it.
        let owner_trx = call.owner_trx.saturating_sub(reserved.trx_sun.max(0));
        call.fee_limit = terms.fee_limit(&sponsor);
        let fee_limit = call.fee_limit;
        let mut tx = builders::transaction(chain, call, RELAY_EXPIRATION_MS).await?;
        tx.sign(&self.key)?;
        // java-tron charges a transaction's protobuf plus 64 bytes of bandwidth.
        let bytes = tx.to_protobuf().len() as i64 + 64;
        let simulated = Simulated {
            energy,
            bytes,
            refund_sun,
        };
        check_cost(&terms, &simulated, fee, &sponsor, required)?;
        let bandwidth_burn = terms.bandwidth_burn(bytes) as i64;
        let worst_case = fee_limit
            .saturating_add(refund_sun)
            .saturating_add(bandwidth_burn);
        if owner_trx < self.config.min_balance.max(worst_case) {
            tracing::warn!(
                balance_sun = owner_trx,
                reserved_sun = reserved.trx_sun,
                needed_sun = worst_case,
                "the relayer is short of TRX"
            );
            return Err(Error::Disabled(
                "the relayer cannot pay for energy right now; try later or another relayer".into(),
            ));
        }
        let txid = tx.txid();
        let now = tron::transaction::now_ms();
        let job = Job {
            txid: txid.to_hex(),
            pool: pool.to_base58(),
            denomination,
            nullifier_hash: nullifier_hex,
            recipient: request.recipient.to_base58(),
            fee: fee.to_string(),
            refund: refund_sun.to_string(),
            state: JobState::Signed,
            expiration: tx.expiration(),
            created_at: now,
            updated_at: now,
            error: None,
            block: None,
            energy_used: None,
            fee_sun: None,
            attempts: 0,
        };
        let reference = format!("{} {}", job.pool, job.nullifier_hash);
        let relied_on = terms.relied_on(&sponsor);
        let source = terms.own.bandwidth_source(bytes);
        let reservation = Reservation {
            // The most of our stake it may use: our share of the ceiling, at most the stake.
            energy: terms
                .our_energy(terms.policy.max_energy, &sponsor)
                .min(terms.own.energy),
            staked_bandwidth: if source == BandwidthSource::Staked {
                bytes
            } else {
                0
            },
            free_bandwidth: if source == BandwidthSource::Free {
                bytes
            } else {
                0
            },
            trx_sun: worst_case,
            sponsor: relied_on
                .sponsor
                .filter(|_| relied_on.percent > 0)
                .map(|s| s.to_base58()),
            sponsor_energy: relied_on.of(terms.policy.max_energy),
        };
        self.jobs.insert(
            &job,
            &reservation,
            &Journal::entry(&tx, Purpose::Relay, reference),
            self.journal.lease(),
        )?;
        self.listing_changed();
        drop(shared_turn);
        drop(turn);
        tracing::info!(txid = %job.txid, denomination, "relaying a withdrawal");
        // Detached: a request that gives up does not take the broadcast with it.
        let broadcast = tokio::spawn({
            let (relayer, chain) = (Arc::clone(self), Arc::clone(chain));
            async move {
                let state = relayer.first_broadcast(&chain, &job.txid).await;
                pools::pool_changed(&chain, denomination);
                state
            }
        });
        match tokio::time::timeout(wait, broadcast).await {
            Ok(Ok(state)) => Ok(Relayed {
                txid,
                state: state?,
            }),
            Ok(Err(stopped)) => Err(Error::Failed(format!(
                "relaying {txid}: the broadcast stopped: {stopped}"
            ))),
            Err(_) => Ok(Relayed {
                txid,
                state: JobState::Signed,
            }),
        }
    }

    /// A conflict naming the transaction that already relays this note, if one does.
    fn refuse_relayed(&self, pool: &Address, nullifier_hex: &str) -> Result<()> {
        match self.jobs.live(&pool.to_base58(), nullifier_hex)? {
            Some(job) => Err(Error::Conflict(format!(
                "nullifier hash {nullifier_hex} was already relayed by us: transaction {} ({})",
                job.txid,
                job.state.as_str()
            ))),
            None => Ok(()),
        }
    }

    /// Refuses a refund to an address that holds code, for an operator who wants none (see
    /// [`RelayerConfig::allow_contract_refund`]).
    async fn refuse_contract_recipient(&self, chain: &Chain, recipient: Address) -> Result<()> {
        let contract = chain.node.get_contract(&recipient).await?;
        if contract.is_some_and(|c| !c.bytecode.is_empty()) {
            return Err(Error::Refused(format!(
                "{recipient} is a contract: this relayer sends no refund to a contract (ask \
                 without a refund, or withdraw to an ordinary address)"
            )));
        }
        Ok(())
    }

    /// The first broadcast of a recorded job, and the state it leaves the job in.
    async fn first_broadcast(&self, chain: &Chain, txid: &str) -> Result<JobState> {
        let entry = self.journal.get(txid)?;
        match self.journal.broadcast(&chain.node, &entry).await? {
            Broadcast::Accepted => Ok(JobState::Broadcast),
            // Busy: the watcher sends it again after a backoff. No answer: maybe sent, maybe
            // not; the watcher sends it again until it lands or expires. The client has the
            // txid either way.
            Broadcast::Retry(_) | Broadcast::Unknown(_) => Ok(JobState::Signed),
            Broadcast::Refused(reason) => Err(Error::Refused(reason)),
        }
    }
}

/// What a simulated relay would spend: its energy, its transaction's bytes and the refund.
#[derive(Clone, Copy)]
struct Simulated {
    energy: i64,
    bytes: i64,
    refund_sun: i64,
}

/// The checks on a simulated relay: within the ceiling, and paid for by its fee with what the
/// pool's `sponsor` pays now.
fn check_cost(
    terms: &Terms<'_>,
    simulated: &Simulated,
    fee: U256,
    sponsor: &SponsorShare,
    required: U256,
) -> Result<()> {
    let Simulated {
        energy,
        bytes,
        refund_sun,
    } = *simulated;
    let ceiling = terms.policy.max_energy;
    if energy > ceiling {
        return Err(Error::Refused(format!(
            "the withdrawal would use {energy} energy, more than the {ceiling} this relayer \
             pays for one relay (does the recipient run code?)"
        )));
    }
    let break_even = terms.break_even(energy, bytes, refund_sun, sponsor);
    if fee < break_even {
        return Err(Error::Refused(format!(
            "fee {fee} does not cover this withdrawal's {energy} energy, {bytes} bytes and \
             refund with what this relayer has left after its unfinished relays; it needs fee \
             {break_even} (its quote is now {required})"
        )));
    }
    Ok(())
}
