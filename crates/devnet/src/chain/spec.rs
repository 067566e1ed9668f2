//! Which EVM rules the devnet runs: one constant both the EVM's configuration and the energy
//! tables read, so neither has to import the other for it.

use revm::primitives::hardfork::SpecId;

/// The EVM rules TRON mainnet runs (Shanghai and Cancun opcodes are enabled there).
pub const SPEC: SpecId = SpecId::CANCUN;
