//! Energy estimation (`wallet/estimateenergy`): the chain runs the call under trial limits; the
//! HTTP layer only renders the answer.

use tron::transaction::Trigger;

use super::Ledger;
use super::receipt::ContractRet;

impl Ledger {
    /// The least energy limit with which `call` succeeds, given that it used `used` when run
    /// with plenty: what `wallet/estimateenergy` answers. What a call used is not always
    /// enough as its limit: a call forwards only 63/64 of what is left to the one it makes,
    /// so the outer call needs more than it spends. Found by doubling, then bisecting.
    pub fn least_sufficient_energy(&mut self, call: &Trigger, used: i64) -> i64 {
        let chain = self;
        let succeeds = |chain: &mut Ledger, limit: i64| {
            chain
                .call_limited(
                    call.owner,
                    call.contract,
                    call.data.clone(),
                    call.call_value,
                    limit,
                )
                .is_ok_and(|o| o.ret == ContractRet::Success)
        };
        if succeeds(chain, used) {
            return used;
        }
        let (mut low, mut high) = (used, used.saturating_mul(2).max(used + 100_000));
        while !succeeds(chain, high) {
            low = high;
            high = high.saturating_mul(2);
            if high > chain.params().max_fee_limit / chain.params().energy_fee {
                return used;
            }
        }
        while high - low > 1 {
            let mid = low + (high - low) / 2;
            if succeeds(chain, mid) {
                high = mid;
            } else {
                low = mid;
            }
        }
        high
    }
}
