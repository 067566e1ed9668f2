//! What a withdrawal reveals about its deposit, and the warnings a person gets before they
//! send it: the anonymity set, the time since the deposit, a recipient without TRX. Apart
//! from the workflows so the progress reports that carry it sit below them.

use alloy_primitives::U256;
use serde::Serialize;

/// Below this many deposits after yours, a withdrawal warns: the fewer deposits follow
/// yours, the fewer candidates an observer has to pick from, whatever came before.
pub(crate) const MIN_LATER_DEPOSITS: u32 = 10;
/// Below this many seconds (24 hours) since the deposit, a withdrawal warns: a withdrawal
/// soon after a deposit is easy to pair with it by time alone.
pub(crate) const MIN_SECONDS_SINCE_DEPOSIT: i64 = 24 * 60 * 60;

/// What a withdrawal reveals about its deposit, and the warnings that go with it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Guidance {
    pub anonymity_set: AnonymitySet,
    /// Seconds since the deposit's block; absent when the cache holds no time for its leaf.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since_deposit_seconds: Option<i64>,
    /// What the recipient holds, in sun.
    pub recipient_trx_sun: i64,
    pub warnings: Vec<Warning>,
}

/// The deposits of the pool the withdrawal could be any of: the leaves before the note's and
/// after it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct AnonymitySet {
    pub before: u32,
    pub after: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Warning {
    pub code: WarningCode,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum WarningCode {
    /// Fewer than [`MIN_LATER_DEPOSITS`] deposits after the note's.
    FewLaterDeposits,
    /// Less than [`MIN_SECONDS_SINCE_DEPOSIT`] since the deposit.
    RecentDeposit,
    /// The recipient holds no TRX and no refund was asked: it cannot move the USDT.
    RecipientWithoutTrx,
}

/// How the user asks for a refund where they withdraw: named in the warning about a
/// recipient without TRX.
#[derive(Debug, Clone, Copy)]
pub enum RefundBy {
    /// The user pays the refund along with the withdrawal.
    Sender,
    /// The relayer sends it and its fee covers it.
    Relayer,
}

/// What the recipient holds and what is sent along to it: whether it can move the USDT.
#[derive(Debug, Clone, Copy)]
pub struct RecipientFunds {
    /// What the recipient holds, in sun.
    pub trx_sun: i64,
    /// TRX (sun) sent along with the withdrawal.
    pub refund: U256,
    /// Who would send a refund.
    pub by: RefundBy,
}

impl Guidance {
    /// The guidance for the note at `leaf_index` of a pool of `leaves`, paid to a recipient
    /// with `recipient`'s funds; `deposited_ms` is the deposit's block time and `now_ms` this
    /// moment.
    pub fn new(
        leaves: usize,
        leaf_index: u32,
        deposited_ms: Option<i64>,
        now_ms: i64,
        recipient: RecipientFunds,
    ) -> Self {
        let RecipientFunds {
            trx_sun: recipient_trx_sun,
            refund,
            by: refund_by,
        } = recipient;
        let leaves = u32::try_from(leaves).unwrap_or(u32::MAX);
        let anonymity_set = AnonymitySet {
            before: leaf_index,
            after: leaves.saturating_sub(leaf_index.saturating_add(1)),
        };
        let since_deposit_seconds = deposited_ms.map(|at| (now_ms - at).max(0) / 1000);
        let mut warnings = Vec::new();
        if anonymity_set.after < MIN_LATER_DEPOSITS {
            warnings.push(Warning {
                code: WarningCode::FewLaterDeposits,
                message: format!(
                    "only {} deposit(s) into this pool came after yours (fewer than \
                     {MIN_LATER_DEPOSITS}): withdrawing now narrows who it could be; waiting \
                     for more deposits helps",
                    anonymity_set.after
                ),
            });
        }
        if let Some(seconds) = since_deposit_seconds
            && seconds < MIN_SECONDS_SINCE_DEPOSIT
        {
            warnings.push(Warning {
                code: WarningCode::RecentDeposit,
                message: format!(
                    "the deposit was made {} ago (under {} h): a withdrawal soon after a \
                     deposit is easy to pair with it by time",
                    duration_text(seconds),
                    MIN_SECONDS_SINCE_DEPOSIT / 3600
                ),
            });
        }
        if recipient_trx_sun == 0 && refund.is_zero() {
            let how = match refund_by {
                RefundBy::Sender => "pass --refund TRX to send some along (paid by you)",
                RefundBy::Relayer => {
                    "pass --refund TRX to have the relayer send some along (its fee covers it)"
                }
            };
            warnings.push(Warning {
                code: WarningCode::RecipientWithoutTrx,
                message: format!(
                    "the recipient holds no TRX and no refund was asked: a fresh TRON address \
                     cannot move USDT without TRX for its fees; {how}"
                ),
            });
        }
        Guidance {
            anonymity_set,
            since_deposit_seconds,
            recipient_trx_sun,
            warnings,
        }
    }

    /// `12 deposits before yours, 3 after; deposited 2 h 5 min ago`.
    pub fn describe(&self) -> String {
        let set = format!(
            "anonymity set: {} deposit(s) before yours, {} after",
            self.anonymity_set.before, self.anonymity_set.after
        );
        match self.since_deposit_seconds {
            Some(seconds) => format!("{set}; deposited {} ago", duration_text(seconds)),
            None => set,
        }
    }
}

/// `45 s`, `12 min`, `5 h 3 min`, `3 d 4 h`.
fn duration_text(seconds: i64) -> String {
    let (days, hours, minutes) = (seconds / 86_400, seconds / 3600 % 24, seconds / 60 % 60);
    if days > 0 {
        format!("{days} d {hours} h")
    } else if hours > 0 {
        format!("{hours} h {minutes} min")
    } else if minutes > 0 {
        format!("{minutes} min")
    } else {
        format!("{seconds} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(g: &Guidance) -> Vec<WarningCode> {
        g.warnings.iter().map(|w| w.code).collect()
    }

    #[test]
    fn guidance_counts_the_deposits_and_warns_below_the_thresholds() {
        let now = 1_700_000_000_000;
        // Leaf 3 of 5, deposited 10 s ago, to a fresh address without a refund.
        let g = Guidance::new(
            5,
            3,
            Some(now - 10_000),
            now,
            RecipientFunds {
                trx_sun: 0,
                refund: U256::ZERO,
                by: RefundBy::Sender,
            },
        );
        assert_eq!((g.anonymity_set.before, g.anonymity_set.after), (3, 1));
        assert_eq!(g.since_deposit_seconds, Some(10));
        assert_eq!(
            codes(&g),
            [
                WarningCode::FewLaterDeposits,
                WarningCode::RecentDeposit,
                WarningCode::RecipientWithoutTrx
            ]
        );
        assert!(g.warnings[2].message.contains("paid by you"));
        // Exactly at the thresholds, a recipient with TRX: nothing to warn about.
        let leaves = 1 + MIN_LATER_DEPOSITS as usize;
        let then = now - MIN_SECONDS_SINCE_DEPOSIT * 1000;
        let g = Guidance::new(
            leaves,
            0,
            Some(then),
            now,
            RecipientFunds {
                trx_sun: 1,
                refund: U256::ZERO,
                by: RefundBy::Relayer,
            },
        );
        assert_eq!(g.anonymity_set.after, MIN_LATER_DEPOSITS);
        assert!(g.warnings.is_empty(), "{:?}", g.warnings);
        // One short of each, and a refund asked for a fresh address.
        let g = Guidance::new(
            leaves - 1,
            0,
            Some(then + 1000),
            now,
            RecipientFunds {
                trx_sun: 0,
                refund: U256::from(1u8),
                by: RefundBy::Relayer,
            },
        );
        assert_eq!(
            codes(&g),
            [WarningCode::FewLaterDeposits, WarningCode::RecentDeposit]
        );
        assert_eq!(
            serde_json::to_value(&g).unwrap()["anonymitySet"],
            serde_json::json!({"before": 0, "after": MIN_LATER_DEPOSITS - 1})
        );
        assert_eq!(
            serde_json::to_value(&g).unwrap()["warnings"][0]["code"],
            "fewLaterDeposits"
        );
    }

    #[test]
    fn durations_read_plainly() {
        assert_eq!(duration_text(45), "45 s");
        assert_eq!(duration_text(12 * 60 + 5), "12 min");
        assert_eq!(duration_text(5 * 3600 + 3 * 60), "5 h 3 min");
        assert_eq!(duration_text(3 * 86_400 + 4 * 3600), "3 d 4 h");
    }
}
