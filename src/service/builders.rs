//! Unsigned transactions for an external signer (TronWeb, TronLink, `tronpool tx sign`):
//! approve, deposit and withdraw.
//!
//! A builder asks the chain everything it can before the caller pays: balances, allowance,
//! whether the commitment is fresh or the note unspent, whether the proof verifies, and
//! finally what the call would do (a simulation against the head state). A transaction that
//! would revert is never handed out; the caller gets the reason instead.

use alloy_primitives::{B256, U256};
use alloy_sol_types::SolCall;
use contracts::TronPool;
use serde::Serialize;
use tron::abi::Trc20;
use tron::{Action, Address, Transaction, TransactionBuilder, Trigger};
use zk::circuit::PublicInputs;
use zk::proof::EncodedProof;

use crate::error::{Error, Result};
use crate::service::balances;
use crate::service::chain::Chain;
use crate::service::format::six_decimals_text;
use crate::service::pool_state::SponsorShare;
use crate::service::pools;
use crate::service::sponsor;
use crate::units::format_units;

/// How long an unsigned transaction stays valid after its reference block: time for a person
/// to read it and confirm on a hardware wallet (TronWeb's default of 60 s is not).
pub(crate) const EXPIRATION_MS: i64 = 10 * 60 * 1000;

/// Headroom over the simulated energy: a deposit's cost depends on the tree's state when it
/// lands, which a deposit in between can change.
const FEE_LIMIT_MARGIN_PERCENT: i64 = 30;

/// How a call's energy will be paid, as java-tron's receipt splits it
/// (`ReceiptCapsule.payEnergyBill`): the contract's sponsor (its origin) first, from its staked
/// energy and at most `origin_energy_limit`, for the share its callers do not pay; then the
/// caller's own staked energy; the rest burned at the energy price. What the sponsor's and the
/// caller's stake cover is what they have now: a call landing after others may find less.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnergySplit {
    /// The energy the simulation used.
    pub energy: i64,
    /// Paid from the contract sponsor's stake.
    pub sponsor_energy: i64,
    /// Paid from the caller's stake.
    pub staked_energy: i64,
    /// Burned by the caller.
    pub burned_energy: i64,
    /// `burned_energy` at the energy price, in sun.
    pub burned_sun: i64,
    /// The transaction's fee limit: what the caller's share could cost at most, in sun.
    pub fee_limit_sun: i64,
}

impl EnergySplit {
    /// Splits `energy` between the contract's `sponsor`, the caller's `staked` energy left,
    /// and a burn at `energy_fee` sun per energy.
    pub fn new(
        energy: i64,
        sponsor: &SponsorShare,
        staked: i64,
        energy_fee: i64,
        fee_limit_sun: i64,
    ) -> Self {
        let energy = energy.max(0);
        let sponsor_energy = sponsor.of(energy);
        let staked_energy = (energy - sponsor_energy).min(staked.max(0));
        let burned_energy = energy - sponsor_energy - staked_energy;
        EnergySplit {
            energy,
            sponsor_energy,
            staked_energy,
            burned_energy,
            burned_sun: burned_energy.saturating_mul(energy_fee),
            fee_limit_sun,
        }
    }

    /// One line for a confirmation: `478610 energy: 478610 from the pool's sponsor, 0 from
    /// your stake, 0 burned (0 TRX)`.
    pub fn describe(&self) -> String {
        format!(
            "{} energy: {} from the contract's sponsor, {} from your stake, {} burned ({} TRX)",
            self.energy,
            self.sponsor_energy,
            self.staked_energy,
            self.burned_energy,
            format_units(self.burned_sun.into(), 6)
        )
    }
}

/// A transaction built here, with how its energy will be paid.
#[derive(Debug, Clone)]
pub struct Built {
    pub transaction: Transaction,
    pub estimate: EnergySplit,
}

/// An unsigned transaction as the API returns it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Unsigned {
    /// An unsigned TRON transaction in java-tron's JSON (`txID`, `raw_data`, `raw_data_hex`,
    /// `visible`); sign it as it is (TronWeb `trx.sign`, TronLink, `tronpool tx sign`).
    #[schema(schema_with = crate::service::wire::schema::transaction)]
    pub transaction: serde_json::Value,
    /// How its energy would be paid if it ran now.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub estimate: Option<EnergySplit>,
}

impl Unsigned {
    pub fn new(tx: &Transaction) -> Self {
        Unsigned {
            transaction: tx.to_json(false),
            estimate: None,
        }
    }

    pub fn built(built: &Built) -> Self {
        Unsigned {
            transaction: built.transaction.to_json(false),
            estimate: Some(built.estimate),
        }
    }
}

/// A withdrawal as the caller describes it; every field is checked before use.
#[derive(Debug, Clone)]
pub struct WithdrawRequest {
    pub from: Address,
    pub denomination: u64,
    pub proof: EncodedProof,
    pub root: B256,
    pub nullifier_hash: B256,
    pub recipient: Address,
    pub relayer: Option<Address>,
    /// USDT base units, paid to the relayer.
    pub fee: U256,
    /// Sun, sent by `from` to the recipient.
    pub refund: U256,
}

/// What an approval allows beyond the deposits it is for: one base unit (0.000001 USDT). It
/// stays behind when the deposits have taken theirs, so the allowance never falls back to
/// zero and the next approval rewrites a slot that holds a value (5,000 of storage energy,
/// ×4.4 in USDT) instead of filling an empty one (20,000, ×4.4): a returning depositor's
/// approval costs about a third of the first. TRON's USDT lets an allowance go from one
/// non-zero value to another (its `approve` has no zero-first rule).
pub(crate) const ALLOWANCE_KEPT: U256 = U256::from_limbs([1, 0, 0, 0]);

/// The allowance that `count` deposits into the pool of `denomination` ask for: what they
/// take, and [`ALLOWANCE_KEPT`].
pub(crate) fn approval_for(chain: &Chain, denomination: u64, count: u64) -> Result<U256> {
    Ok(chain.denomination(denomination)?.times(count) + ALLOWANCE_KEPT)
}

/// `approve(pool, amount)`; `amount` defaults to one deposit's ([`approval_for`]).
pub(crate) async fn build_approve(
    chain: &Chain,
    from: Address,
    denomination: u64,
    amount: Option<U256>,
) -> Result<Unsigned> {
    Ok(Unsigned::built(
        &approve_transaction(chain, from, denomination, amount).await?,
    ))
}

/// The unsigned approval itself, for a caller that signs here.
pub(crate) async fn approve_transaction(
    chain: &Chain,
    from: Address,
    denomination: u64,
    amount: Option<U256>,
) -> Result<Built> {
    let pool = chain.pool_address(denomination)?;
    let amount = match amount {
        Some(amount) => amount,
        None => approval_for(chain, denomination, 1)?,
    };
    let data = Trc20::approveCall {
        spender: pool.into(),
        value: amount,
    }
    .abi_encode();
    build_call(chain, from, chain.deployment.usdt, 0, data, "the approval").await
}

/// `deposit(commitment)` into the pool of `denomination`.
pub(crate) async fn build_deposit(
    chain: &Chain,
    from: Address,
    denomination: u64,
    commitment: B256,
) -> Result<Unsigned> {
    Ok(Unsigned::built(
        &deposit_transaction(chain, from, denomination, commitment).await?,
    ))
}

/// The unsigned deposit itself, for a caller that signs here.
pub(crate) async fn deposit_transaction(
    chain: &Chain,
    from: Address,
    denomination: u64,
    commitment: B256,
) -> Result<Built> {
    let pool = chain.pool_address(denomination)?;
    if commitment.is_zero() {
        return Err(Error::usage(
            "commitment is zero; make it from a note (Poseidon(nullifier, secret))",
        ));
    }
    let denom = chain.denomination(denomination)?;
    let needed = denom.deposit_units();
    // A pool that inserts at once marks each commitment it holds; a queued pool keeps no
    // slot per commitment (it would cost every deposit 20,000 energy), and a repeated
    // commitment only costs its depositor, whose note can be withdrawn once.
    let used = async {
        if chain.queued() {
            Ok(false)
        } else {
            chain
                .view(pool, TronPool::commitmentsCall(commitment))
                .await
        }
    };
    let (used, balance, allowance) = tokio::try_join!(
        used,
        balances::usdt_balance(chain, from),
        balances::usdt_allowance(chain, from, pool),
    )?;
    if used {
        return Err(Error::Refused(format!(
            "commitment {commitment} is already in the {denomination} USDT pool; make a \
             new note"
        )));
    }
    if balance < needed {
        return Err(Error::Refused(format!(
            "{from} holds {} USDT; the deposit needs {}",
            six_decimals_text(balance),
            six_decimals_text(needed)
        )));
    }
    if allowance < needed {
        return Err(Error::Refused(format!(
            "insufficient allowance: {from} allows the pool {pool} {} USDT, the deposit \
             needs {}; approve first (POST /api/tx/approve)",
            six_decimals_text(allowance),
            six_decimals_text(needed)
        )));
    }
    let data = TronPool::depositCall { commitment }.abi_encode();
    build_call(chain, from, pool, 0, data, "the deposit").await
}

/// `withdraw(...)`, after checking the note is unspent, the root known and the proof
/// valid for exactly these inputs.
pub(crate) async fn build_withdraw(chain: &Chain, request: &WithdrawRequest) -> Result<Unsigned> {
    Ok(Unsigned::built(
        &withdraw_transaction(chain, request).await?,
    ))
}

/// The unsigned withdrawal itself, for a caller that signs here.
pub(crate) async fn withdraw_transaction(
    chain: &Chain,
    request: &WithdrawRequest,
) -> Result<Built> {
    let pool = chain.pool_address(request.denomination)?;
    let refund = check_withdrawal(chain, request, SpentCheck::AskNode).await?;
    let data = withdraw_calldata(request);
    build_call(chain, request.from, pool, refund, data, "the withdrawal").await
}

/// Everything about a withdrawal that can be known without running it: the amounts, the
/// nullifier unspent, the root known, and the proof (verified here, off-chain, so nobody
/// pays energy for a proof the verifier contract would reject). Returns the refund in sun.
pub(crate) async fn check_withdrawal(
    chain: &Chain,
    request: &WithdrawRequest,
    spent: SpentCheck,
) -> Result<i64> {
    let denomination = request.denomination;
    if request.fee > chain.denomination(denomination)?.base_units() {
        return Err(Error::usage(format!(
            "fee {} is more than the {denomination} USDT the pool pays out",
            request.fee
        )));
    }
    if request.relayer.is_none() && !request.fee.is_zero() {
        return Err(Error::usage("a fee is paid to a relayer: name the relayer"));
    }
    let refund = i64::try_from(request.refund)
        .map_err(|_| Error::usage("refund is more TRX than exists"))?;
    let status = match spent {
        SpentCheck::AskNode => {
            pools::can_withdraw(chain, denomination, request.nullifier_hash, request.root).await?
        }
        SpentCheck::CheckedLocally => {
            pools::root_withdrawable(chain, denomination, request.root).await?
        }
    };
    if status.spent {
        return Err(Error::Conflict(format!(
            "nullifier hash {} is already spent in the {denomination} USDT pool",
            request.nullifier_hash
        )));
    }
    if !status.known_root {
        return Err(Error::Refused(status.reason.unwrap_or_default()));
    }
    let public = public_inputs(request)?;
    let proof = request
        .proof
        .to_proof()
        .map_err(|e| Error::BadNote(format!("the proof is not a valid Groth16 proof: {e}")))?;
    let keys = chain.verifying_keys()?;
    let verified = tokio::task::spawn_blocking(move || zk::proof::verify(&keys, &public, &proof))
        .await
        .map_err(|e| Error::task("proof verification", e))?;
    if !verified {
        return Err(Error::BadNote(
            "the proof does not verify for this root, nullifier hash, recipient, relayer, \
             fee and refund"
                .into(),
        ));
    }
    Ok(refund)
}

/// Simulates the call, checks `owner` can pay for its energy, and builds the transaction
/// on the head block with a fee limit that covers the simulated energy with headroom.
pub(crate) async fn build_call(
    chain: &Chain,
    owner: Address,
    contract: Address,
    call_value: i64,
    data: Vec<u8>,
    what: &str,
) -> Result<Built> {
    let call = prepare_call(chain, owner, contract, call_value, data).await?;
    call.check_succeeds(what)?;
    if let Some(shortfall) = call.shortfall(what) {
        return Err(Error::Refused(shortfall));
    }
    let estimate = call.split;
    Ok(Built {
        transaction: transaction(chain, call, EXPIRATION_MS).await?,
        estimate,
    })
}

/// Everything needed to decide on a call: what it would do, what it would cost, and
/// what its owner holds, fetched together.
pub(crate) async fn prepare_call(
    chain: &Chain,
    owner: Address,
    contract: Address,
    call_value: i64,
    data: Vec<u8>,
) -> Result<PreparedCall> {
    let (simulated, prices, trx, resources, sponsor) = tokio::try_join!(
        chain.simulate(owner, contract, call_value, data.clone()),
        chain.prices(),
        balances::trx_balance(chain, owner),
        async { Ok(chain.node.get_account_resource(&owner).await?) },
        sponsor::sponsor_share(chain, contract, owner),
    )?;
    let energy = simulated.energy_used.max(0);
    // The fee limit covers the whole energy as the caller's: a sponsor's stake can run out
    // before the transaction lands, and the call must not fail for it.
    let fee_limit = fee_limit(energy, prices.energy_fee).min(prices.max_fee_limit);
    let split = EnergySplit::new(
        energy,
        &sponsor,
        resources.energy_available(),
        prices.energy_fee,
        fee_limit,
    );
    let burned = split.burned_sun;
    Ok(PreparedCall {
        trigger: Trigger {
            owner,
            contract,
            call_value,
            data,
            ..Default::default()
        },
        revert: simulated.reverted.then(|| {
            simulated
                .revert_reason()
                .unwrap_or_else(|| "it reverts without a reason".into())
        }),
        energy,
        burned,
        split,
        sponsor,
        owner_trx: trx,
        fee_limit,
    })
}

/// The transaction for a prepared call, on the head block, valid for `expiration_ms`.
pub async fn transaction(
    chain: &Chain,
    call: PreparedCall,
    expiration_ms: i64,
) -> Result<Transaction> {
    let reference = chain.head().await?.block.ref_block();
    Ok(
        TransactionBuilder::new(Action::Trigger(call.trigger), reference)
            .expiration(reference.timestamp + expiration_ms)
            .fee_limit(call.fee_limit)
            .build(),
    )
}

/// A call simulated and priced, not yet built.
#[derive(Debug, Clone)]
pub struct PreparedCall {
    pub trigger: Trigger,
    /// Why the simulation reverted, if it did.
    pub revert: Option<String>,
    pub energy: i64,
    /// Sun the energy would burn beyond the sponsor's and the owner's staked energy.
    pub burned: i64,
    /// How the energy would be paid.
    pub split: EnergySplit,
    /// What the contract's sponsor pays of the call's energy, as it stood.
    pub sponsor: SponsorShare,
    pub owner_trx: i64,
    pub fee_limit: i64,
}

impl PreparedCall {
    /// TRX the owner needs: the burn plus what is sent along.
    pub fn cost(&self) -> i64 {
        self.burned.saturating_add(self.trigger.call_value)
    }

    pub(crate) fn check_succeeds(&self, what: &str) -> Result<()> {
        match &self.revert {
            Some(reason) => Err(Error::Refused(format!("{what} would fail: {reason}"))),
            None => Ok(()),
        }
    }

    /// Why the owner cannot pay, if they cannot.
    pub(crate) fn shortfall(&self, what: &str) -> Option<String> {
        let call_value = self.trigger.call_value;
        (self.owner_trx < self.cost()).then(|| {
            format!(
                "{} holds {} TRX; {what} needs about {} TRX ({} for {} energy{})",
                self.trigger.owner,
                format_units(self.owner_trx.into(), 6),
                format_units(self.cost().into(), 6),
                format_units(self.burned.into(), 6),
                self.energy,
                if call_value > 0 {
                    format!(" and {} sent along", format_units(call_value.into(), 6))
                } else {
                    String::new()
                }
            )
        })
    }
}

/// The simulated energy plus the margin, in sun, rounded up to a whole TRX.
fn fee_limit(energy: i64, energy_fee: i64) -> i64 {
    let sun = energy.saturating_mul(energy_fee) * (100 + FEE_LIMIT_MARGIN_PERCENT) / 100;
    ((sun + 999_999) / 1_000_000).max(1) * 1_000_000
}

/// The six public inputs a proof for this request must have been made for.
pub(crate) fn public_inputs(request: &WithdrawRequest) -> Result<PublicInputs> {
    let address_word =
        |a: Option<Address>| a.map_or(U256::ZERO, |a| U256::from_be_slice(&a.evm_bytes()));
    let words = [
        U256::from_be_bytes(request.root.0),
        U256::from_be_bytes(request.nullifier_hash.0),
        address_word(Some(request.recipient)),
        address_word(request.relayer),
        request.fee,
        request.refund,
    ];
    PublicInputs::from_words(&words).map_err(|e| Error::usage(e.to_string()))
}

/// The pool's `withdraw` call for this request.
pub(crate) fn withdraw_calldata(request: &WithdrawRequest) -> Vec<u8> {
    TronPool::withdrawCall {
        proof: request.proof.to_bytes().to_vec().into(),
        root: request.root,
        nullifierHash: request.nullifier_hash,
        recipient: request.recipient.into(),
        relayer: request.relayer.map(Into::into).unwrap_or_default(),
        fee: request.fee,
        refund: request.refund,
    }
    .abi_encode()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fee_limits_cover_the_energy_with_headroom() {
        // 473,565 energy at 100 sun: 47.36 TRX, +30% = 61.56, rounded up to 62 TRX.
        assert_eq!(fee_limit(473_565, 100), 62_000_000);
        assert_eq!(fee_limit(0, 100), 1_000_000);
    }
}

/// Who answers "is the nullifier spent?" for [`check_withdrawal`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SpentCheck {
    /// The node, through the pool's `isSpent`: for a server (the relayer, the API's
    /// builder), whose question about a stranger's nullifier links nothing of its own.
    AskNode,
    /// Already answered from the pool's synced withdrawals
    /// ([`crate::service::sync::SyncedTree::is_spent`]): for a client, which never asks a
    /// node about its own note's nullifier.
    CheckedLocally,
}
