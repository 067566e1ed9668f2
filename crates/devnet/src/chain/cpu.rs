//! The time a java-tron block producer spends running a contract, modeled, so that the devnet
//! ends a transaction `OUT_OF_TIME` where TRON would.
//!
//! TRON bounds each contract transaction by wall-clock CPU time: the chain parameter
//! `getMaxCpuTimeOfOneTx` (80 ms on mainnet; 50 in a fresh java-tron database), turned into a
//! deadline when the VM starts (java-tron `VMActuator.call`/`create`, ratio 1.0 for a block
//! being produced, for pending transactions and for constant calls). The VM checks it before
//! executing each opcode (`Program.checkCPUTimeLimit`, from `VM.play`, after the opcode's
//! energy is charged), and never inside a precompile: a pairing runs to its end and the next
//! opcode finds the time gone. A run past the deadline throws `Program.OutOfTimeException`
//! ("CPU timeout for '<OP>' operation executing"): contract result `OUT_OF_TIME`, state
//! reverted, and all the energy the fee limit allows spent (`Program.spendAllEnergy`) and
//! burned. revm is orders of magnitude faster than java-tron, so the devnet cannot time
//! itself; it adds up what each operation would cost java-tron instead.
//!
//! **Precompiles** dominate anything that verifies a proof. java-tron's bn128 code is pure
//! Java with `BigInteger` arithmetic (`crypto/.../zksnark/*.java`, the pairing decoding each
//! G2 point and checking its subgroup with a full scalar multiplication). The model is
//! calibrated so that, at speed 1, a 4-pair pairing check costs 61 ms (the average reported
//! for a producer-class node in TRON's TIP #843, warm) and one ecMul + ecAdd 1.65 ms (2.7%
//! of a pairing, the ratio measured on java-tron's own bn128 code, warm): the pairing is a
//! final exponentiation (13 ms) plus 12 ms per pair; ecMul 1.6 ms, ecAdd 0.05 ms.
//!
//! **Ordinary opcodes** are priced per class, not per unit of energy: java-tron's MULMOD runs
//! `BigInteger` multiply and mod (about 0.5 µs) for 8 energy while an SSTORE writes a few
//! microseconds' worth of state for 20,000. The classes below are documented estimates, small
//! next to the precompiles: a depth-20 deposit (20 Poseidon hashes, ~10,000 MULMOD) models
//! at about 7 ms.
//!
//! `speed` scales the whole model: 2 is a producer twice as fast, 0.5 one whose JIT has not
//! compiled the bn128 code yet (cold producers measured 3× slower).

use revm::bytecode::opcode;

/// Nanoseconds java-tron spends on one opcode at speed 1 (the interpreter's dispatch and its
/// `DataWord` arithmetic; memory growth and copying are not counted separately).
pub fn opcode_ns(op: u8) -> f64 {
    match op {
        opcode::MULMOD => 500.0,
        opcode::ADDMOD => 250.0,
        opcode::EXP => 400.0,
        opcode::MUL
        | opcode::DIV
        | opcode::SDIV
        | opcode::MOD
        | opcode::SMOD
        | opcode::SIGNEXTEND => 150.0,
        opcode::KECCAK256 => 1_000.0,
        opcode::SLOAD => 2_000.0,
        opcode::SSTORE => 4_000.0,
        opcode::TLOAD | opcode::TSTORE => 200.0,
        opcode::BALANCE | opcode::EXTCODESIZE | opcode::EXTCODECOPY | opcode::EXTCODEHASH => {
            2_000.0
        }
        opcode::CALL | opcode::CALLCODE | opcode::DELEGATECALL | opcode::STATICCALL => 5_000.0,
        opcode::CREATE | opcode::CREATE2 => 20_000.0,
        opcode::LOG0..=opcode::LOG4 => 1_000.0,
        opcode::SELFDESTRUCT => 5_000.0,
        opcode::CALLDATACOPY | opcode::CODECOPY | opcode::RETURNDATACOPY | opcode::MCOPY => 200.0,
        _ => 50.0,
    }
}

/// Nanoseconds a precompile at `address` (its last byte; the rest are zero) takes on
/// `input_len` bytes at speed 1, or `None` for an address that is not a precompile.
pub fn precompile_ns(address: u8, input_len: usize) -> Option<f64> {
    let words = input_len.div_ceil(32) as f64;
    Some(match address {
        0x01 => 100_000.0,                                              // ecrecover
        0x02 => 2_000.0 + 100.0 * words,                                // sha256
        0x04 => 500.0 + 10.0 * words,                                   // identity
        0x05 => 50_000.0,                                               // modexp
        0x06 => 50_000.0,                                               // bn128 add
        0x07 => 1_600_000.0,                                            // bn128 scalar mul
        0x08 => 13_000_000.0 + 12_000_000.0 * (input_len / 192) as f64, // bn128 pairing
        _ => return None,
    })
}

/// A run's modeled time against its limit.
#[derive(Debug, Clone)]
pub struct CpuMeter {
    used_ns: f64,
    limit_ns: f64,
    speed: f64,
    /// The opcode the limit ran out at (java-tron names it in its message).
    out_of_time: Option<u8>,
}

impl CpuMeter {
    /// A meter for a run allowed `limit_ms` of modeled time on a producer of `speed`.
    pub fn new(limit_ms: i64, speed: f64) -> Self {
        CpuMeter {
            used_ns: 0.0,
            limit_ns: limit_ms.max(0) as f64 * 1e6,
            speed: if speed > 0.0 { speed } else { 1.0 },
            out_of_time: None,
        }
    }

    /// A meter that never runs out (genesis, which java-tron would not time either).
    pub fn unlimited() -> Self {
        CpuMeter::new(i64::MAX / 2_000_000, 1.0)
    }

    /// java-tron's check before executing `op`: answers whether the time is already gone
    /// (and remembers `op`, which the message names).
    pub fn check(&mut self, op: u8) -> bool {
        if self.out_of_time.is_none() && self.used_ns > self.limit_ns {
            self.out_of_time = Some(op);
        }
        self.out_of_time.is_some()
    }

    /// Adds `ns` of work at speed 1.
    pub fn add(&mut self, ns: f64) {
        self.used_ns += ns / self.speed;
    }

    pub fn is_out_of_time(&self) -> bool {
        self.out_of_time.is_some()
    }

    /// Modeled microseconds so far.
    pub fn used_us(&self) -> i64 {
        (self.used_ns / 1_000.0).round() as i64
    }

    /// java-tron's message for a run that ran out of time (`Program.Exception
    /// .notEnoughTime`), or `None`.
    pub fn message(&self) -> Option<String> {
        self.out_of_time.map(|op| {
            let name = revm::bytecode::opcode::OpCode::new(op)
                .map_or_else(|| format!("0x{op:02x}"), |o| o.as_str().to_owned());
            format!("CPU timeout for '{name}' operation executing")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calibration_points() {
        let pairing4 = precompile_ns(0x08, 4 * 192).unwrap();
        assert_eq!(pairing4, 61e6, "a 4-pair pairing is 61 ms at speed 1");
        let per_input = precompile_ns(0x07, 96).unwrap() + precompile_ns(0x06, 128).unwrap();
        assert_eq!(per_input, 1.65e6, "one ecMul + ecAdd is 1.65 ms");
        assert!((per_input / pairing4 - 0.027).abs() < 0.001);
        assert_eq!(precompile_ns(0x09, 0), None);
    }

    #[test]
    fn a_meter_runs_out_once_and_scales_with_speed() {
        let mut slow = CpuMeter::new(80, 1.0);
        slow.add(precompile_ns(0x08, 4 * 192).unwrap());
        assert!(!slow.check(opcode::ISZERO));
        slow.add(precompile_ns(0x08, 2 * 192).unwrap());
        // The pairing ran to its end; the next opcode finds the time gone.
        assert!(slow.check(opcode::ISZERO));
        assert!(slow.check(opcode::POP), "out of time stays out of time");
        assert_eq!(slow.used_us(), 61_000 + 37_000);
        assert_eq!(
            slow.message().as_deref(),
            Some("CPU timeout for 'ISZERO' operation executing")
        );
        let mut fast = CpuMeter::new(80, 4.0);
        fast.add(precompile_ns(0x08, 8 * 192).unwrap());
        assert!(!fast.check(opcode::ISZERO));
        assert_eq!(fast.used_us(), 27_250);
        assert_eq!(fast.message(), None);
    }
}
