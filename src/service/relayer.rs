//! The relayer: submits other people's withdrawals with its own key, pays the energy, and
//! earns the pool's fee.
//!
//! Nothing is broadcast until every check that costs nothing has passed, in this order: the
//! note is not in flight or relayed by us, not spent, the root is known, the proof verifies
//! off-chain for *our* address and the fee we accept, the fee is ours, we can pay, and a
//! simulation succeeds. The job is recorded (with the signed transaction) before the
//! broadcast, so a crash can lose neither the job nor its outcome; the watcher follows each
//! job to its receipt, broadcasting again what a crash or a node may have dropped.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use alloy_primitives::{B256, U256};
use serde::Serialize;
use tron::{Address, NodeError, PrivateKey, Transaction, TxId};
use zk::proof::EncodedProof;

use crate::error::{Error, Result};
use crate::service::builders::{WithdrawRequest, withdraw_calldata};
use crate::service::chain::Chain;
use crate::service::pools::{six_decimals, word_hex};
use crate::service::relayer_fees::RelayerFees;
use crate::store::jobs::{Job, JobState, JobStore};

/// A relayed transaction is broadcast at once; a short validity bounds how long a job can
/// stay undecided after a crash.
const RELAY_EXPIRATION_MS: i64 = 2 * 60 * 1000;

#[derive(Debug, Clone)]
pub struct RelayerConfig {
    /// Work is refused (503) below this balance, in sun.
    pub min_balance: i64,
    /// The most TRX (sun) we forward to a recipient as a refund.
    pub max_refund: i64,
    /// How often the watcher looks at unfinished jobs.
    pub poll: Duration,
}

impl Default for RelayerConfig {
    fn default() -> Self {
        RelayerConfig {
            min_balance: 100_000_000,
            max_refund: 10_000_000,
            poll: Duration::from_secs(1),
        }
    }
}

/// A withdrawal as a client asks us to relay it.
#[derive(Debug, Clone)]
pub struct RelayRequest {
    pub denomination: u64,
    pub proof: EncodedProof,
    pub root: B256,
    pub nullifier_hash: B256,
    pub recipient: Address,
    /// Defaults to the advertised fee.
    pub fee: Option<U256>,
    /// Sun; defaults to zero.
    pub refund: Option<U256>,
}

/// `GET /api/relayer/status`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RelayerStatus {
    pub enabled: bool,
    pub address: Option<Address>,
    pub network: String,
    pub balance_trx: Option<f64>,
    pub energy_available: Option<i64>,
    pub fees: Vec<FeeQuote>,
    pub pending: usize,
    pub version: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FeeQuote {
    pub denomination: u64,
    pub relayer_fee: f64,
    pub relayer_fee_raw: String,
}

/// `POST /api/relayer/withdraw`.
#[derive(Debug, Clone, Serialize)]
pub struct Relayed {
    pub txid: TxId,
}

pub struct Relayer {
    key: PrivateKey,
    config: RelayerConfig,
    jobs: JobStore,
    /// Notes between "accepted for checking" and "recorded": concurrent copies of one
    /// request meet here, and all but the first are turned away.
    in_flight: Mutex<HashSet<(u64, B256)>>,
}

/// Takes a note out of the in-flight set when its request ends, however it ends.
struct InFlight<'a> {
    set: &'a Mutex<HashSet<(u64, B256)>>,
    note: (u64, B256),
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.set
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.note);
    }
}

impl Relayer {
    pub fn new(key: PrivateKey, config: RelayerConfig, jobs: JobStore) -> Self {
        Relayer {
            key,
            config,
            jobs,
            in_flight: Mutex::new(HashSet::new()),
        }
    }

    pub fn address(&self) -> Address {
        self.key.address()
    }

    pub fn jobs(&self) -> &JobStore {
        &self.jobs
    }

    fn claim(&self, note: (u64, B256)) -> Result<InFlight<'_>> {
        let mut set = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
        if !set.insert(note) {
            return Err(Error::Conflict(format!(
                "nullifier hash {} is already being relayed",
                word_hex(&note.1)
            )));
        }
        Ok(InFlight {
            set: &self.in_flight,
            note,
        })
    }

    pub async fn status(&self, chain: &Chain, fees: &RelayerFees) -> Result<RelayerStatus> {
        let address = self.address();
        let (trx, resources) = tokio::try_join!(chain.trx_balance(address), async {
            Ok(chain.node.get_account_resource(&address).await?)
        })?;
        Ok(RelayerStatus {
            enabled: true,
            address: Some(address),
            network: chain.network.clone(),
            balance_trx: Some(six_decimals(U256::from(trx.max(0)))),
            energy_available: Some(resources.energy_available()),
            fees: fee_quotes(chain, fees),
            pending: self.jobs.unfinished()?.len(),
            version: env!("CARGO_PKG_VERSION"),
        })
    }

    /// Checks, signs, records and broadcasts one withdrawal; answers with its txid.
    pub async fn relay(
        &self,
        chain: &Chain,
        fees: &RelayerFees,
        request: &RelayRequest,
    ) -> Result<Relayed> {
        let denomination = request.denomination;
        let pool = chain.pool_address(denomination)?;
        let _claim = self.claim((denomination, request.nullifier_hash))?;
        let nullifier_hex = word_hex(&request.nullifier_hash);
        if let Some(job) = self.jobs.live(&pool.to_base58(), &nullifier_hex)? {
            return Err(Error::Conflict(format!(
                "nullifier hash {nullifier_hex} was already relayed by us: transaction {} \
                 ({})",
                job.txid,
                job.state.as_str()
            )));
        }
        let advertised = U256::from(fees.fee(denomination));
        let fee = request.fee.unwrap_or(advertised);
        let refund = request.refund.unwrap_or(U256::ZERO);
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
        let refund_sun = chain.check_withdrawal(&withdrawal).await?;
        if fee < advertised {
            return Err(Error::Refused(format!(
                "fee {fee} is below this relayer's fee of {advertised} for the \
                 {denomination} USDT pool; prove again with fee {advertised}"
            )));
        }
        if refund_sun > self.config.max_refund {
            return Err(Error::Refused(format!(
                "refund {refund_sun} sun is more than this relayer forwards ({} sun)",
                self.config.max_refund
            )));
        }
        let call = chain
            .prepare_call(
                self.address(),
                pool,
                refund_sun,
                withdraw_calldata(&withdrawal),
            )
            .await?;
        if call.owner_trx < self.config.min_balance.max(call.cost()) {
            tracing::warn!(
                balance_sun = call.owner_trx,
                needed_sun = call.cost(),
                "the relayer is short of TRX"
            );
            return Err(Error::Disabled(
                "the relayer cannot pay for energy right now; try later or another relayer".into(),
            ));
        }
        call.check_succeeds("the withdrawal")?;

        let mut tx = chain.transaction(call, RELAY_EXPIRATION_MS).await?;
        tx.sign(&self.key)?;
        let txid = tx.txid();
        let now = tron::transaction::now_ms();
        let job = Job {
            txid: txid.to_hex(),
            pool: pool.to_base58(),
            denomination,
            nullifier_hash: nullifier_hex,
            recipient: request.recipient.to_base58(),
            fee: fee.to_string(),
            state: JobState::Signed,
            signed_hex: hex::encode(tx.to_protobuf()),
            expiration: tx.expiration(),
            created_at: now,
            updated_at: now,
            error: None,
        };
        self.jobs.insert(&job)?;
        tracing::info!(txid = %job.txid, denomination, "relaying a withdrawal");
        match chain.node.broadcast_hex(&tx).await {
            Ok(_) => self.jobs.set_state(&job.txid, JobState::Broadcast, None)?,
            Err(NodeError::Refused { code, message, .. }) => {
                let reason = format!("the node refused it: {code}: {message}");
                self.jobs
                    .set_state(&job.txid, JobState::Failed, Some(&reason))?;
                return Err(Error::Refused(reason));
            }
            // Maybe sent, maybe not: the job is recorded, and the watcher broadcasts it
            // again until it lands or expires. The client tracks the txid either way.
            Err(e) => tracing::warn!(txid = %job.txid, error = %e, "broadcast unconfirmed"),
        }
        chain.pool_changed(denomination);
        Ok(Relayed { txid })
    }

    /// Follows every unfinished job until the server stops; after a restart this picks up
    /// where the last process left off.
    pub async fn watch(self: Arc<Self>, chain: Arc<Chain>) {
        loop {
            if let Err(e) = self.check_jobs(&chain).await {
                tracing::warn!(error = %e, "checking relayer jobs");
            }
            tokio::time::sleep(self.config.poll).await;
        }
    }

    /// One pass over the unfinished jobs.
    pub async fn check_jobs(&self, chain: &Chain) -> Result<()> {
        for job in self.jobs.unfinished()? {
            self.check_job(chain, &job).await?;
        }
        Ok(())
    }

    async fn check_job(&self, chain: &Chain, job: &Job) -> Result<()> {
        let txid: TxId = job
            .txid
            .parse()
            .map_err(|_| Error::Failed(format!("relayer job store: bad txid {}", job.txid)))?;
        if let Some(info) = chain.node.get_transaction_info(&txid).await? {
            let (state, error) = if info.succeeded() {
                (JobState::Confirmed, None)
            } else {
                let reason = info
                    .failure_reason()
                    .unwrap_or_else(|| "it failed on chain".into());
                (JobState::Failed, Some(reason))
            };
            tracing::info!(txid = %job.txid, state = state.as_str(), "relayer job finished");
            self.jobs.set_state(&job.txid, state, error.as_deref())?;
            chain.pool_changed(job.denomination);
            return Ok(());
        }
        let head = chain.node.get_now_block().await?;
        if head.timestamp() > job.expiration {
            self.jobs.set_state(
                &job.txid,
                JobState::Failed,
                Some("expired before it was included in a block"),
            )?;
            return Ok(());
        }
        // Not executed yet. Unless the node holds it, (re)broadcast the recorded bytes.
        if job.state == JobState::Signed || chain.node.get_transaction_by_id(&txid).await?.is_none()
        {
            let bytes = hex::decode(&job.signed_hex)
                .map_err(|e| Error::Failed(format!("relayer job {}: {e}", job.txid)))?;
            let tx = Transaction::from_protobuf(&bytes)
                .map_err(|e| Error::Failed(format!("relayer job {}: {e}", job.txid)))?;
            match chain.node.broadcast_hex(&tx).await {
                Ok(_) => self.jobs.set_state(&job.txid, JobState::Broadcast, None)?,
                Err(NodeError::Refused { code, .. }) if code == "DUP_TRANSACTION_ERROR" => {
                    self.jobs.set_state(&job.txid, JobState::Broadcast, None)?
                }
                Err(NodeError::Refused { code, message, .. }) => {
                    let reason = format!("the node refused it: {code}: {message}");
                    self.jobs
                        .set_state(&job.txid, JobState::Failed, Some(&reason))?;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }
}

/// The advertised fee of every pool.
pub fn fee_quotes(chain: &Chain, fees: &RelayerFees) -> Vec<FeeQuote> {
    chain
        .denominations()
        .into_iter()
        .map(|denomination| {
            let fee = fees.fee(denomination);
            FeeQuote {
                denomination,
                relayer_fee: six_decimals(U256::from(fee)),
                relayer_fee_raw: fee.to_string(),
            }
        })
        .collect()
}
