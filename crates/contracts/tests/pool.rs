//! The pool end to end in revm: the real compiled contracts (DevUSDT, PoseidonT3,
//! Groth16Verifier with the development key, TronPool), real proofs from `crates/zk`.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use alloy_primitives::{Address, B256, Bytes, U256, address};
use alloy_sol_types::{SolCall, SolConstructor};
use contracts::{DevUSDT, Groth16Verifier, PoseidonT3, TronPool, creation_code};
use support::{DEPLOYER, Outcome, Vm};
use zk::Fr;
use zk::circuit::PublicInputs;
use zk::keys::Keys;
use zk::note::{Note, NoteMeta};
use zk::proof::{EncodedProof, Witness, prove};
use zk::tree::MerkleTree;

/// 100 USDT.
const DENOMINATION: u64 = 100_000_000;
const ALICE: Address = address!("00000000000000000000000000000000000a11ce");
const RELAYER: Address = address!("00000000000000000000000000000000000e1a7e");

fn word(f: &Fr) -> B256 {
    B256::from(zk::field::to_be_bytes(f))
}

fn field(a: &Address) -> Fr {
    zk::field::from_address(&a.0.0)
}

struct Pool {
    chain: Vm,
    usdt: Address,
    verifier: Address,
    pool: Address,
    /// The client's copy of the tree, fed with the same commitments.
    tree: MerkleTree,
}

impl Pool {
    fn new() -> Self {
        let mut chain = Vm::new();
        let supply = U256::from(1_000_000u64) * U256::from(DENOMINATION);
        let usdt = chain.deploy(&creation_code(
            &DevUSDT::BYTECODE,
            &DevUSDT::constructorCall {
                initialSupply: supply,
            }
            .abi_encode(),
        ));
        let hasher = chain.deploy(&PoseidonT3::BYTECODE);
        let verifier = chain.deploy(&creation_code(
            &Groth16Verifier::BYTECODE,
            &Keys::insecure_dev().verifier_args().abi_encode(),
        ));
        let pool = chain.deploy(&creation_code(
            &TronPool::BYTECODE,
            &TronPool::constructorCall {
                verifier_: verifier,
                hasher_: hasher,
                token_: usdt,
                denomination_: U256::from(DENOMINATION),
            }
            .abi_encode(),
        ));
        for who in [ALICE, RELAYER] {
            chain.set_balance(who, U256::from(1_000_000_000_000u64));
        }
        Pool {
            chain,
            usdt,
            verifier,
            pool,
            tree: MerkleTree::new(),
        }
    }

    fn usdt_call(&mut self, from: Address, call: impl SolCall) -> Outcome {
        self.chain
            .call(from, self.usdt, &call.abi_encode(), U256::ZERO)
    }

    fn usdt_balance(&mut self, who: Address) -> U256 {
        let out = self
            .chain
            .view(ALICE, self.usdt, &DevUSDT::balanceOfCall(who).abi_encode());
        DevUSDT::balanceOfCall::abi_decode_returns(&out.expect_success("balanceOf").output)
            .expect("uint256")
    }

    fn pool_view<C: SolCall>(&mut self, call: C) -> C::Return {
        let out = self.chain.view(ALICE, self.pool, &call.abi_encode());
        C::abi_decode_returns(&out.expect_success("pool view").output).expect("decodes")
    }

    /// Gives `who` one denomination, approves the pool, deposits a fresh note.
    fn deposit(&mut self, who: Address) -> (Note, Outcome) {
        let note = Note::generate(NoteMeta::usdt(100, "devnet").expect("valid meta"));
        self.usdt_call(
            DEPLOYER,
            DevUSDT::transferCall {
                to: who,
                value: U256::from(DENOMINATION),
            },
        )
        .expect_success("fund");
        self.usdt_call(
            who,
            DevUSDT::approveCall {
                spender: self.pool,
                value: U256::from(DENOMINATION),
            },
        )
        .expect_success("approve");
        let out = self.chain.call(
            who,
            self.pool,
            &TronPool::depositCall {
                commitment: word(&note.commitment()),
            }
            .abi_encode(),
            U256::ZERO,
        );
        if out.is_success() {
            self.tree.insert(note.commitment()).expect("tree has room");
        }
        (note, out)
    }

    fn withdraw_call(
        &self,
        note: &Note,
        recipient: Address,
        relayer: Address,
        fee: u64,
        refund: u64,
    ) -> (PublicInputs, TronPool::withdrawCall) {
        let index = self
            .tree
            .index_of(&note.commitment())
            .expect("the note was deposited");
        let path = self.tree.path(index).expect("leaf exists");
        let public = PublicInputs {
            root: self.tree.root(),
            nullifier_hash: note.nullifier_hash(),
            recipient: field(&recipient),
            relayer: field(&relayer),
            fee: Fr::from(fee),
            refund: Fr::from(refund),
        };
        let witness = Witness::new(note, &path).expect("depth 20");
        let proof = prove(
            Keys::insecure_dev(),
            &public,
            &witness,
            &mut rand_core::OsRng,
        )
        .expect("valid withdrawal");
        let call = TronPool::withdrawCall {
            proof: Bytes::from(EncodedProof::from_proof(&proof).to_bytes().to_vec()),
            root: word(&public.root),
            nullifierHash: word(&public.nullifier_hash),
            recipient,
            relayer,
            fee: U256::from(fee),
            refund: U256::from(refund),
        };
        (public, call)
    }

    fn collect_fees(&mut self, relayer: Address) -> Outcome {
        let data = TronPool::collectFeesCall {}.abi_encode();
        self.chain.call(relayer, self.pool, &data, U256::ZERO)
    }

    fn withdraw(&mut self, from: Address, call: &TronPool::withdrawCall) -> Outcome {
        let value = call.refund;
        self.chain.call(from, self.pool, &call.abi_encode(), value)
    }
}

#[test]
fn roots_match_the_client_tree_after_every_deposit() {
    let mut p = Pool::new();
    let empty: B256 = p.pool_view(TronPool::getLastRootCall {});
    assert_eq!(empty, word(&zk::tree::empty_root()));
    // The unused slots of the ring hold zero, which is never a root.
    let zero_known: bool = p.pool_view(TronPool::isKnownRootCall { root: B256::ZERO });
    assert!(!zero_known);
    let empty_known: bool = p.pool_view(TronPool::isKnownRootCall { root: empty });
    assert!(empty_known);
    // Past leaf 256, so that every level up to 8 has had its frontier word stored, read as a
    // right node's sibling and stored again (`_insert` stores a left node only once complete).
    const DEPOSITS: u32 = 300;
    let mut roots = vec![empty];
    for i in 0..DEPOSITS {
        let (_, out) = p.deposit(ALICE);
        out.expect_success("deposit");
        let root: B256 = p.pool_view(TronPool::getLastRootCall {});
        assert_eq!(root, word(&p.tree.root()), "after deposit {i}");
        roots.push(root);
    }
    let next: u32 = p.pool_view(TronPool::nextIndexCall {});
    assert_eq!(next, DEPOSITS);
    let current: u32 = p.pool_view(TronPool::currentRootIndexCall {});
    assert_eq!(current, DEPOSITS % 100);
    // The ring holds exactly the last 100 roots.
    for (age, root) in roots.iter().rev().enumerate() {
        let known: bool = p.pool_view(TronPool::isKnownRootCall { root: *root });
        assert_eq!(known, age < 100, "the root of {age} deposits ago");
    }
    for i in 0..=20u64 {
        let z: B256 = p.pool_view(TronPool::zerosCall { i: U256::from(i) });
        assert_eq!(z, word(&zk::tree::zeros()[i as usize]), "zeros({i})");
    }
    let beyond = p.chain.view(
        ALICE,
        p.pool,
        &TronPool::zerosCall { i: U256::from(21) }.abi_encode(),
    );
    assert!(!beyond.is_success(), "zeros(21) must revert");
}

#[test]
fn deposit_refuses_duplicates_and_non_field_commitments() {
    let mut p = Pool::new();
    let (note, out) = p.deposit(ALICE);
    out.expect_success("deposit");
    let again = p.chain.call(
        ALICE,
        p.pool,
        &TronPool::depositCall {
            commitment: word(&note.commitment()),
        }
        .abi_encode(),
        U256::ZERO,
    );
    assert_eq!(
        again.revert_reason().as_deref(),
        Some("pool: commitment already deposited")
    );
    let too_big = p.chain.call(
        ALICE,
        p.pool,
        &TronPool::depositCall {
            commitment: B256::from(zk::field::MODULUS.to_be_bytes::<32>()),
        }
        .abi_encode(),
        U256::ZERO,
    );
    assert_eq!(
        too_big.revert_reason().as_deref(),
        Some("pool: commitment is not a field element")
    );
    // Without an allowance the token refuses, and its reason comes through.
    let unfunded = address!("0000000000000000000000000000000000000b0b");
    let fresh = p.chain.call(
        unfunded,
        p.pool,
        &TronPool::depositCall {
            commitment: B256::with_last_byte(7),
        }
        .abi_encode(),
        U256::ZERO,
    );
    assert_eq!(
        fresh.revert_reason().as_deref(),
        Some("USDT: allowance too low")
    );
}

#[test]
fn withdraw_directly_then_never_again() {
    let mut p = Pool::new();
    let (note, out) = p.deposit(ALICE);
    out.expect_success("deposit");
    for _ in 0..3 {
        p.deposit(ALICE).1.expect_success("other deposits");
    }
    let bob = address!("0000000000000000000000000000000000000b0b");
    let (_, call) = p.withdraw_call(&note, bob, Address::ZERO, 0, 0);
    assert!(p.pool_view(TronPool::canWithdrawCall {
        nullifierHash: call.nullifierHash,
        root: call.root
    }));
    p.withdraw(bob, &call).expect_success("withdraw");
    assert_eq!(p.usdt_balance(bob), U256::from(DENOMINATION));
    assert!(p.pool_view(TronPool::isSpentCall {
        nullifierHash: call.nullifierHash
    }));
    let twice = p.withdraw(bob, &call);
    assert_eq!(
        twice.revert_reason().as_deref(),
        Some("pool: note already spent")
    );
    assert_eq!(p.usdt_balance(p.pool), U256::from(3 * DENOMINATION));
}

#[test]
fn withdraw_through_a_relayer_with_fee_and_refund() {
    let mut p = Pool::new();
    let (note, out) = p.deposit(ALICE);
    out.expect_success("deposit");
    let fresh = address!("00000000000000000000000000000000000f4e55");
    let fee = 1_500_000;
    let refund = 2_000_000;
    let (_, call) = p.withdraw_call(&note, fresh, RELAYER, fee, refund);
    let relayer_trx = p.chain.balance(RELAYER);
    p.withdraw(RELAYER, &call)
        .expect_success("relayed withdraw");
    assert_eq!(p.usdt_balance(fresh), U256::from(DENOMINATION - fee));
    assert_eq!(p.chain.balance(fresh), U256::from(refund));
    assert_eq!(p.chain.balance(RELAYER), relayer_trx - U256::from(refund));
    // The fee stays in the pool, credited to the relayer.
    assert_eq!(p.usdt_balance(RELAYER), U256::ZERO);
    assert_eq!(p.usdt_balance(p.pool), U256::from(fee));
    let credit: U256 = p.pool_view(TronPool::relayerFeesCall::new((RELAYER,)));
    assert_eq!(credit, U256::from(fee));

    // It collects in one transfer, leaving one base unit so the next credit is no fresh slot.
    let collectable: U256 = p.pool_view(TronPool::collectableFeesCall { relayer: RELAYER });
    assert_eq!(collectable, U256::from(fee - 1));
    let stranger = p.collect_fees(ALICE);
    assert_eq!(
        stranger.revert_reason().as_deref(),
        Some("pool: no fees to collect")
    );
    p.collect_fees(RELAYER).expect_success("collect");
    assert_eq!(p.usdt_balance(RELAYER), U256::from(fee - 1));
    assert_eq!(p.usdt_balance(p.pool), U256::from(1u64));
    let again = p.collect_fees(RELAYER);
    assert_eq!(
        again.revert_reason().as_deref(),
        Some("pool: no fees to collect")
    );

    // The next relay's fee is collected whole.
    let (note, out) = p.deposit(ALICE);
    out.expect_success("deposit");
    let (_, call) = p.withdraw_call(&note, fresh, RELAYER, fee, 0);
    p.withdraw(RELAYER, &call).expect_success("second relay");
    p.collect_fees(RELAYER).expect_success("collect");
    assert_eq!(p.usdt_balance(RELAYER), U256::from(2 * fee - 1));
    assert_eq!(p.usdt_balance(p.pool), U256::from(1u64));
}

#[test]
fn bad_withdrawals_are_refused_with_their_reason() {
    let mut p = Pool::new();
    let (note, out) = p.deposit(ALICE);
    out.expect_success("deposit");
    let bob = address!("0000000000000000000000000000000000000b0b");
    let (_, good) = p.withdraw_call(&note, bob, RELAYER, 1_000, 0);

    let reason = |p: &mut Pool, call: &TronPool::withdrawCall| {
        p.withdraw(RELAYER, call)
            .revert_reason()
            .unwrap_or_default()
    };

    let mut unknown_root = good.clone();
    unknown_root.root = B256::with_last_byte(1);
    assert_eq!(reason(&mut p, &unknown_root), "pool: unknown root");

    let mut greedy = good.clone();
    greedy.fee = U256::from(DENOMINATION + 1);
    assert_eq!(reason(&mut p, &greedy), "pool: fee exceeds denomination");

    // Any changed bound input, or a changed proof, and the proof no longer holds.
    let mut redirected = good.clone();
    redirected.recipient = RELAYER;
    assert_eq!(reason(&mut p, &redirected), "pool: invalid withdraw proof");
    let mut raised = good.clone();
    raised.fee = U256::from(2_000);
    assert_eq!(reason(&mut p, &raised), "pool: invalid withdraw proof");
    let mut other_relayer = good.clone();
    other_relayer.relayer = ALICE;
    assert_eq!(
        reason(&mut p, &other_relayer),
        "pool: invalid withdraw proof"
    );
    let mut other_note = good.clone();
    other_note.nullifierHash = B256::with_last_byte(9);
    assert_eq!(reason(&mut p, &other_note), "pool: invalid withdraw proof");
    let mut tampered = good.clone();
    let mut bytes = tampered.proof.to_vec();
    bytes[255] ^= 1;
    tampered.proof = bytes.into();
    assert_eq!(reason(&mut p, &tampered), "pool: invalid withdraw proof");
    let mut short = good.clone();
    short.proof = Bytes::from(vec![0u8; 255]);
    assert_eq!(reason(&mut p, &short), "pool: proof must be 256 bytes");
    // nullifierHash + r would be a second name for the same note.
    let mut aliased = good.clone();
    aliased.nullifierHash =
        B256::from((U256::from_be_bytes(good.nullifierHash.0) + zk::field::MODULUS).to_be_bytes());
    assert_eq!(
        reason(&mut p, &aliased),
        "pool: nullifier hash is not a field element"
    );
    // A fee with nobody to pay it to.
    let mut unpaid = good.clone();
    unpaid.relayer = Address::ZERO;
    assert_eq!(reason(&mut p, &unpaid), "pool: a fee needs a relayer");
    // The refund is bound too.
    let mut refunded = good.clone();
    refunded.refund = U256::from(7u64);
    let out = p
        .chain
        .call(RELAYER, p.pool, &refunded.abi_encode(), U256::from(7u64));
    assert_eq!(
        out.revert_reason().as_deref(),
        Some("pool: invalid withdraw proof")
    );

    // What needs no proof is refused before the verifier runs: a small part of its cost. (An
    // unknown root is too, after a walk of the 100-root ring: 100 cold SLOADs here, 5,000
    // energy on TRON, where an SLOAD costs 50.)
    let verified = p.withdraw(RELAYER, &raised).gas_used;
    for cheap in [&greedy, &unpaid, &aliased] {
        let used = p.withdraw(RELAYER, cheap).gas_used;
        assert!(used * 5 < verified, "{used} of a verification's {verified}");
    }
    let mut wrong_value = good.clone();
    wrong_value.refund = U256::ZERO;
    let out = p
        .chain
        .call(RELAYER, p.pool, &wrong_value.abi_encode(), U256::from(5));
    assert_eq!(
        out.revert_reason().as_deref(),
        Some("pool: TRX sent must equal the refund")
    );

    // Nothing above spent the note.
    p.withdraw(RELAYER, &good)
        .expect_success("the honest withdrawal");
}

#[test]
fn a_zero_recipient_is_refused_even_with_a_valid_proof() {
    let mut p = Pool::new();
    let (note, out) = p.deposit(ALICE);
    out.expect_success("deposit");
    let (_, call) = p.withdraw_call(&note, Address::ZERO, RELAYER, 0, 0);
    assert_eq!(
        p.withdraw(RELAYER, &call).revert_reason().as_deref(),
        Some("pool: recipient is the zero address")
    );
}

#[test]
fn a_blacklisted_recipient_reverts_and_the_note_stays_spendable() {
    let mut p = Pool::new();
    let (note, out) = p.deposit(ALICE);
    out.expect_success("deposit");
    let frozen = address!("000000000000000000000000000000000000f00f");
    p.usdt_call(DEPLOYER, DevUSDT::addBlackListCall { user: frozen })
        .expect_success("blacklist");
    let (_, call) = p.withdraw_call(&note, frozen, Address::ZERO, 0, 0);
    assert_eq!(
        p.withdraw(ALICE, &call).revert_reason().as_deref(),
        Some("USDT: recipient is blacklisted")
    );
    assert!(!p.pool_view(TronPool::isSpentCall {
        nullifierHash: call.nullifierHash
    }));
    p.usdt_call(DEPLOYER, DevUSDT::removeBlackListCall { user: frozen })
        .expect_success("unblacklist");
    p.withdraw(ALICE, &call)
        .expect_success("withdraw after unfreezing");
    assert_eq!(p.usdt_balance(frozen), U256::from(DENOMINATION));
}

#[test]
fn the_token_behaves_like_trons_usdt() {
    let mut p = Pool::new();
    let out = p
        .usdt_call(
            DEPLOYER,
            DevUSDT::transferCall {
                to: ALICE,
                value: U256::from(5u64),
            },
        )
        .expect_success("transfer");
    // Success, yet `false`: the pool must not trust this value, and the tests above pass
    // against exactly this token.
    assert!(!DevUSDT::transferCall::abi_decode_returns(&out.output).expect("bool"));
    assert_eq!(p.usdt_balance(ALICE), U256::from(5u64));
    p.usdt_call(
        ALICE,
        DevUSDT::approveCall {
            spender: RELAYER,
            value: U256::from(5u64),
        },
    )
    .expect_success("approve");
    let out = p
        .usdt_call(
            RELAYER,
            DevUSDT::transferFromCall {
                from: ALICE,
                to: RELAYER,
                value: U256::from(5u64),
            },
        )
        .expect_success("transferFrom");
    assert!(DevUSDT::transferFromCall::abi_decode_returns(&out.output).expect("bool"));
    let decimals: u8 = {
        let out = p
            .chain
            .view(ALICE, p.usdt, &DevUSDT::decimalsCall {}.abi_encode());
        DevUSDT::decimalsCall::abi_decode_returns(&out.output).expect("uint8")
    };
    assert_eq!(decimals, 6);
    p.usdt_call(DEPLOYER, DevUSDT::pauseCall {})
        .expect_success("pause");
    let paused = p.usdt_call(
        DEPLOYER,
        DevUSDT::transferCall {
            to: ALICE,
            value: U256::from(1u64),
        },
    );
    assert_eq!(paused.revert_reason().as_deref(), Some("USDT: paused"));
    let not_owner = p.usdt_call(
        ALICE,
        DevUSDT::issueCall {
            amount: U256::from(1u64),
        },
    );
    assert_eq!(
        not_owner.revert_reason().as_deref(),
        Some("USDT: caller is not the owner")
    );
}

#[test]
fn the_verifier_answers_false_and_cheaply_to_garbage() {
    let mut p = Pool::new();
    let (note, out) = p.deposit(ALICE);
    out.expect_success("deposit");
    let (public, call) = p.withdraw_call(&note, ALICE, Address::ZERO, 0, 0);
    let words: [U256; 8] =
        std::array::from_fn(|i| U256::from_be_slice(&call.proof[i * 32..(i + 1) * 32]));
    let input = [zk::field::to_u256(&public.public_hash())];
    let verify = |p: &mut Pool, proof: [U256; 8], input: [U256; 1]| {
        let out = p.chain.view(
            ALICE,
            p.verifier,
            &Groth16Verifier::verifyProofCall { proof, input }.abi_encode(),
        );
        let ok = Groth16Verifier::verifyProofCall::abi_decode_returns(
            &out.clone()
                .expect_success("verifyProof never reverts")
                .output,
        )
        .expect("bool");
        (ok, out.gas_used)
    };
    let (ok, gas) = verify(&mut p, words, input);
    assert!(ok);
    assert!(gas < 300_000, "verify took {gas}");

    // B in (c0, c1) order: the pairing precompile rejects the point. The call must return
    // false having spent about what a verification costs, not the whole gas limit.
    let mut swapped = words;
    swapped.swap(2, 3);
    swapped.swap(4, 5);
    let (ok, gas) = verify(&mut p, swapped, input);
    assert!(!ok);
    assert!(gas < 300_000, "a rejected point burned {gas}");

    let mut off_curve = words;
    off_curve[1] += U256::from(1);
    assert!(!verify(&mut p, off_curve, input).0);

    let mut too_big = input;
    too_big[0] += zk::field::MODULUS;
    assert!(!verify(&mut p, words, too_big).0);

    let mut q = words;
    q[0] = U256::MAX;
    assert!(!verify(&mut p, q, input).0);
}

/// The cost of `deposit` and `withdraw`, printed as JSON lines (run with `--nocapture`):
/// `cargo test -p contracts --test pool energy -- --nocapture`. Gas under revm's Cancun
/// schedule without the 21,000 intrinsic cost, until the devnet has TRON's energy schedule.
/// Creation code that deploys `runtime` as is: `PUSH1 len DUP1 PUSH1 11 PUSH1 0 CODECOPY
/// PUSH1 0 RETURN`, then the runtime.
fn deploying(runtime: &[u8]) -> Vec<u8> {
    let len = u8::try_from(runtime.len()).unwrap();
    let mut init = vec![
        0x60, len, 0x80, 0x60, 0x0b, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3,
    ];
    init.extend_from_slice(runtime);
    init
}

#[test]
fn a_recipient_that_spins_on_its_refund_gets_the_refund_energy_only_and_the_withdrawal_stands() {
    let mut p = Pool::new();
    let fee = 1_500_000;
    let notes: Vec<Note> = (0..4)
        .map(|_| {
            let (note, out) = p.deposit(ALICE);
            out.expect_success("deposit");
            note
        })
        .collect();
    // A first relay fills the relayer's credit slot, so the two compared below both update it.
    let first = address!("00000000000000000000000000000000000f4e51");
    let (_, call) = p.withdraw_call(&notes[0], first, RELAYER, fee, 1);
    p.withdraw(RELAYER, &call).expect_success("first relay");

    // Its `receive` spins until its energy is gone (JUMPDEST PUSH1 0 JUMP). Uncapped, the
    // refund's call would hand it all the transaction's energy and the withdrawal would run
    // out with it.
    let spinner = p.chain.deploy(&deploying(&[0x5b, 0x60, 0x00, 0x56]));
    let (_, call) = p.withdraw_call(&notes[1], spinner, RELAYER, fee, 1);
    let relayer_trx = p.chain.balance(RELAYER);
    let spun = p
        .withdraw(RELAYER, &call)
        .expect_success("relay to a spinner");
    // The withdrawal and the fee stand; the 1 sun went back to the relayer.
    assert_eq!(p.usdt_balance(spinner), U256::from(DENOMINATION - fee));
    assert_eq!(p.chain.balance(spinner), U256::ZERO);
    assert_eq!(p.chain.balance(RELAYER), relayer_trx);
    let credit: U256 = p.pool_view(TronPool::relayerFeesCall::new((RELAYER,)));
    assert_eq!(credit, U256::from(2 * fee));
    let spent: bool = p.pool_view(TronPool::isSpentCall {
        nullifierHash: call.nullifierHash,
    });
    assert!(spent);

    // The same relay to a plain fresh account, which the refund creates (25,000): the
    // spinner costs the 20,000 cap (the stipend is free) and the refund's return call
    // instead, a few thousand more, nowhere near the transaction's limit.
    let fresh = address!("00000000000000000000000000000000000f4e55");
    let (_, call) = p.withdraw_call(&notes[2], fresh, RELAYER, fee, 1);
    let plain = p
        .withdraw(RELAYER, &call)
        .expect_success("relay to a fresh account");
    assert_eq!(p.chain.balance(fresh), U256::from(1u64));
    let cap: U256 = p.pool_view(TronPool::REFUND_ENERGYCall {});
    assert_eq!(cap, U256::from(20_000u64));
    let extra = spun.gas_used as i64 - plain.gas_used as i64;
    println!(
        "{{\"op\":\"withdraw_relayed_to_spinner_minus_to_fresh\",\"gas\":{extra},\"schedule\":\"cancun-without-intrinsic\"}}"
    );
    assert!(
        extra < 10_000,
        "a spinning recipient cost {extra} more than a fresh one"
    );

    // A recipient whose `receive` writes one empty slot (CALLVALUE CALLER SSTORE STOP) keeps
    // its refund: the cap is enough for that, even at Cancun's cold-slot price.
    let keeper = p.chain.deploy(&deploying(&[0x34, 0x33, 0x55, 0x00]));
    let (_, call) = p.withdraw_call(&notes[3], keeper, RELAYER, fee, 1);
    let relayer_trx = p.chain.balance(RELAYER);
    p.withdraw(RELAYER, &call)
        .expect_success("relay to a keeper");
    assert_eq!(p.chain.balance(keeper), U256::from(1u64));
    assert_eq!(p.chain.balance(RELAYER), relayer_trx - U256::from(1u64));
}

#[test]
fn energy_of_deposit_and_withdraw() {
    let mut p = Pool::new();
    let report = |op: &str, leaf: Option<u32>, gas: u64| {
        let leaf = leaf.map_or("null".to_owned(), |l| l.to_string());
        println!(
            "{{\"op\":\"{op}\",\"leafIndex\":{leaf},\"gas\":{gas},\"schedule\":\"cancun-without-intrinsic\"}}"
        );
    };
    let (first, out) = p.deposit(ALICE);
    let first_gas = out.expect_success("first deposit").gas_used;
    report("deposit", Some(0), first_gas);
    let mut worst = (0, 0);
    for i in 1..=256u32 {
        let gas = p.deposit(ALICE).1.expect_success("deposit").gas_used;
        if gas > worst.1 {
            worst = (i, gas);
        }
    }
    report("deposit_worst_of_1_to_256", Some(worst.0), worst.1);
    let (_, direct) = p.withdraw_call(&first, ALICE, Address::ZERO, 0, 0);
    let direct_gas = p
        .withdraw(ALICE, &direct)
        .expect_success("withdraw")
        .gas_used;
    report("withdraw", None, direct_gas);
    let (second, _) = p.deposit(ALICE);
    let (_, relayed) = p.withdraw_call(
        &second,
        address!("00000000000000000000000000000000000f4e55"),
        RELAYER,
        1_000_000,
        1_000_000,
    );
    let relayed_gas = p
        .withdraw(RELAYER, &relayed)
        .expect_success("relayed withdraw")
        .gas_used;
    report("withdraw_relayed_fee_refund", None, relayed_gas);
}

#[test]
fn the_verifier_refuses_a_key_nobody_contributed_to() {
    let mut chain = Vm::new();
    let good = Keys::insecure_dev().verifier_args();
    let deploy = |chain: &mut Vm, args: &zk::keys::VerifierArgs| {
        chain.try_deploy(
            DEPLOYER,
            &creation_code(&Groth16Verifier::BYTECODE, &args.abi_encode()),
        )
    };
    deploy(&mut chain, &good).expect_success("the development key");
    // δ = γ: what `snarkjs groth16 setup` writes before any contribution.
    let mut same = good.clone();
    same.delta2 = same.gamma2;
    assert_eq!(
        deploy(&mut chain, &same).revert_reason().as_deref(),
        Some("verifier: delta equals gamma")
    );
    // δ = the G2 generator (snarkjs's γ), in the precompile's limb order.
    let mut generator = good.clone();
    generator.delta2 = zk::keys::g2_generator_words();
    assert_eq!(
        deploy(&mut chain, &generator).revert_reason().as_deref(),
        Some("verifier: delta is the generator")
    );
    let mut short = good.clone();
    short.ic.push(short.ic[0]);
    assert_eq!(
        deploy(&mut chain, &short).revert_reason().as_deref(),
        Some("verifier: key is not for 1 public input")
    );
}
