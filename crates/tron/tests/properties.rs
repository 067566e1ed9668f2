//! Properties over random input: conversions round-trip, and no input makes a parser panic.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use proptest::prelude::*;
use tron::{Action, Address, PrivateKey, RefBlock, Transaction, TransactionBuilder, Trigger};

fn any_address() -> impl Strategy<Value = Address> {
    any::<[u8; 20]>().prop_map(Address::from_evm)
}

fn any_action() -> impl Strategy<Value = Action> {
    prop_oneof![
        (any_address(), any_address(), any::<i64>())
            .prop_map(|(owner, to, amount)| Action::Transfer { owner, to, amount }),
        (
            any_address(),
            any_address(),
            any::<i64>(),
            proptest::collection::vec(any::<u8>(), 0..200),
            any::<i64>(),
            any::<i64>()
        )
            .prop_map(
                |(owner, contract, call_value, data, call_token_value, token_id)| {
                    Action::Trigger(Trigger {
                        owner,
                        contract,
                        call_value,
                        data,
                        call_token_value,
                        token_id,
                    })
                }
            ),
    ]
}

fn any_transaction() -> impl Strategy<Value = Transaction> {
    (
        any_action(),
        any::<[u8; 32]>(),
        any::<i64>(),
        any::<i64>(),
        any::<i64>(),
        proptest::collection::vec(any::<u8>(), 0..40),
    )
        .prop_map(|(action, id, expiration, timestamp, fee_limit, memo)| {
            TransactionBuilder::new(
                action,
                RefBlock {
                    number: 0,
                    id,
                    timestamp: 0,
                },
            )
            .expiration(expiration)
            .timestamp(timestamp)
            .fee_limit(fee_limit)
            .memo(memo)
            .build()
        })
}

proptest! {
    #[test]
    fn address_forms_round_trip(a in any_address()) {
        prop_assert_eq!(a.to_base58().parse::<Address>().unwrap(), a);
        prop_assert_eq!(a.to_hex().parse::<Address>().unwrap(), a);
        prop_assert_eq!(Address::from_tron_bytes(&a.tron_bytes()).unwrap(), a);
        prop_assert!(a.to_base58().starts_with('T'));
    }

    #[test]
    fn address_parsing_never_panics(s in "\\PC{0,60}") {
        let _ = s.parse::<Address>();
    }

    #[test]
    fn json_round_trips_in_both_modes(tx in any_transaction()) {
        for visible in [false, true] {
            let back = Transaction::from_json(&tx.to_json(visible)).unwrap();
            prop_assert_eq!(back.raw_bytes(), tx.raw_bytes());
        }
        let back = Transaction::from_raw_bytes(&tx.raw_bytes()).unwrap();
        prop_assert_eq!(back.txid(), tx.txid());
    }

    #[test]
    fn signatures_recover_their_signer(digest in any::<[u8; 32]>()) {
        let key = PrivateKey::generate();
        let sig = key.sign_digest(&digest);
        prop_assert_eq!(sig.recover(&digest).unwrap(), key.address());
    }

    #[test]
    fn decoding_garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = Transaction::from_raw_bytes(&bytes);
        let _ = Transaction::from_protobuf(&bytes);
    }

    #[test]
    fn mangled_json_never_panics(tx in any_transaction(), cut in 0usize..2000, byte in any::<u8>()) {
        let mut text = tx.to_json(true).to_string().into_bytes();
        if !text.is_empty() {
            let i = cut % text.len();
            text[i] = byte;
        }
        if let Ok(value) = serde_json::from_slice::<serde_json::Value>(&text) {
            let _ = Transaction::from_json(&value);
        }
    }
}
