//! The deposit note: the only thing that can withdraw a deposit, and the only thing a user
//! must keep.
//!
//! A note is two random 31-byte values, the nullifier and the secret. The pool learns
//! `commitment = hash2(nullifier, secret)` at deposit and `nullifier_hash = hash1(nullifier)`
//! at withdrawal, and nothing links the two without the secret. 31 bytes (248 bits) are below
//! r, so the values need no reduction and the circuit can range-check them with
//! `Num2Bits(248)`, as tornado-core does.
//!
//! Its text form is what people copy, paste and type:
//!
//! ```text
//! tronpool-v1-usdt-100-devnet-0x<nullifier, 31 bytes BE><secret, 31 bytes BE>-<checksum>
//! ```
//!
//! It names the pool (token, denomination, network) so a note cannot be tried against the
//! wrong one, carries a version so the format can change, and ends with 4 bytes of SHA-256 of
//! everything before the last `-`, so a mistyped or truncated note fails to parse with a message
//! saying what is wrong, instead of producing a proof for a deposit that does not exist.
//! Parsing accepts only the exact form [`Note::to_text`] writes (lower-case hex, no leading
//! zeros), so text and note correspond one to one.
//!
//! # Keeping the secret secret
//!
//! The nullifier and secret bytes live in [`Zeroizing`] buffers, wiped when the note drops, and
//! [`Note::to_text`] returns a [`Zeroizing`] string. `Debug` shows the pool and the commitment
//! (which is public: it is on chain) and nothing else. What this cannot cover, honestly:
//! the field elements [`Note::nullifier`] and [`Note::secret`] return are plain `Copy` values
//! the caller must wipe (ark-ff 0.6's `Fr` implements `Zeroize`, so `Zeroizing<Fr>` works),
//! and the copies inside a proving witness are arkworks'; temporaries the compiler leaves on the stack,
//! SHA-256's internal buffer while checksumming, and a `String` made with `to_string()` or
//! `format!` from the `Display` impl are not wiped; memory is not locked against swapping; and
//! the text a note was parsed from belongs to the caller.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use ark_ff::{BigInt, PrimeField};
use rand_core::{CryptoRng, OsRng, RngCore};
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use crate::Fr;
use crate::field;
use crate::poseidon::{hash1, hash2};

/// The length of the nullifier and of the secret.
pub const SECRET_BYTES: usize = 31;
/// The note format this build writes and reads.
pub const VERSION: &str = "v1";
/// The longest network name a note carries.
pub const MAX_NETWORK_LEN: usize = 32;

const PREFIX: &str = "tronpool";
const SECRET_HEX_LEN: usize = 4 * SECRET_BYTES;
const CHECKSUM_HEX_LEN: usize = 8;
const FORM: &str = "tronpool-v1-<token>-<denomination>-<network>-0x<secret>-<checksum>";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoteError {
    #[error("not a tronpool note: a note starts with \"tronpool-\"")]
    NotATronpoolNote,
    #[error("unsupported note version {found}: this build reads {VERSION} notes")]
    UnsupportedVersion { found: String },
    #[error("unknown token {found}: tronpool notes are for usdt")]
    UnknownToken { found: String },
    #[error(
        "bad denomination {found}: expected a whole number of USDT above zero without leading zeros, e.g. 100"
    )]
    BadDenomination { found: String },
    #[error(
        "bad network name {found}: use 1 to {MAX_NETWORK_LEN} characters a-z, 0-9 and '-', starting with a letter, not ending with '-', no part starting with \"0x\" (e.g. devnet, nile, mainnet)"
    )]
    BadNetwork { found: String },
    #[error("the note is incomplete: it ends before the {missing} (a note reads {FORM})")]
    Incomplete { missing: &'static str },
    #[error(
        "the note has no secret: expected \"-0x\" and {SECRET_HEX_LEN} hex digits after the network"
    )]
    MissingSecret,
    #[error("wrong secret length: found {found} hex digits, expected {SECRET_HEX_LEN}")]
    WrongSecretLength { found: usize },
    #[error(
        "bad hex character {ch:?} at position {position} of the note (hex digits are 0-9 and a-f)"
    )]
    BadHexChar { ch: char, position: usize },
    #[error("bad checksum {found}: the note must end with '-' and {CHECKSUM_HEX_LEN} hex digits")]
    BadChecksum { found: String },
    #[error("unexpected text after the checksum: {found}")]
    ExtraParts { found: String },
    #[error("the note is mistyped or damaged: checksum mismatch")]
    ChecksumMismatch,
}

/// A piece of a malformed note, quoted for an error message. Long pieces are only measured: in a
/// badly mangled note a "field" may be the secret, and error messages end up in logs.
fn quote(piece: &str) -> String {
    let len = piece.chars().count();
    if len <= MAX_NETWORK_LEN {
        format!("{piece:?}")
    } else {
        format!("({len} characters)")
    }
}

/// The token a pool holds. One variant today; an enum so a note for another token is refused by
/// name rather than accepted as a string nobody checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Token {
    Usdt,
}

impl Token {
    pub fn as_str(&self) -> &'static str {
        match self {
            Token::Usdt => "usdt",
        }
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Token {
    type Err = NoteError;

    fn from_str(s: &str) -> Result<Self, NoteError> {
        match s {
            "usdt" => Ok(Token::Usdt),
            _ => Err(NoteError::UnknownToken { found: quote(s) }),
        }
    }
}

/// Which pool a note belongs to. Not secret. Fields are private so every `NoteMeta` writes a
/// note that parses back.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "MetaFields")]
pub struct NoteMeta {
    token: Token,
    denomination: u64,
    network: String,
}

#[derive(serde::Deserialize)]
struct MetaFields {
    token: Token,
    denomination: u64,
    network: String,
}

impl TryFrom<MetaFields> for NoteMeta {
    type Error = NoteError;

    fn try_from(m: MetaFields) -> Result<Self, NoteError> {
        NoteMeta::new(m.token, m.denomination, &m.network)
    }
}

impl NoteMeta {
    /// `denomination` in whole tokens (100 for the 100 USDT pool), above zero; `network` as
    /// named in the configuration (`devnet`, `nile`, `shasta`, `mainnet` or a custom name), see
    /// [`NoteError::BadNetwork`] for the rules.
    pub fn new(token: Token, denomination: u64, network: &str) -> Result<Self, NoteError> {
        if denomination == 0 {
            return Err(NoteError::BadDenomination { found: quote("0") });
        }
        check_network(network)?;
        Ok(Self {
            token,
            denomination,
            network: network.to_owned(),
        })
    }

    pub fn usdt(denomination: u64, network: &str) -> Result<Self, NoteError> {
        Self::new(Token::Usdt, denomination, network)
    }

    pub fn token(&self) -> Token {
        self.token
    }

    pub fn denomination(&self) -> u64 {
        self.denomination
    }

    pub fn network(&self) -> &str {
        &self.network
    }
}

/// The name must not need escaping in the note, nor be confused with the secret that follows
/// it (hence no part starting with `0x`), nor be anything but lower case (so one network has
/// one spelling).
fn check_network(network: &str) -> Result<(), NoteError> {
    let ok = (1..=MAX_NETWORK_LEN).contains(&network.len())
        && network
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && network.as_bytes()[0].is_ascii_lowercase()
        && !network.ends_with('-')
        && !network.contains("-0x");
    if ok {
        Ok(())
    } else {
        Err(NoteError::BadNetwork {
            found: quote(network),
        })
    }
}

fn parse_denomination(s: &str) -> Result<u64, NoteError> {
    let bad = || NoteError::BadDenomination { found: quote(s) };
    if !s.bytes().all(|b| b.is_ascii_digit()) || s.starts_with('0') {
        return Err(bad());
    }
    s.parse::<u64>().map_err(|_| bad())
}

/// A deposit note. See the [module documentation](self) for the text form and what is wiped.
///
/// Deliberately not `Clone`: every copy is one more place the secret must be wiped from and can
/// leak from, and nothing needs two (the store writes it, the prover borrows it). Code that
/// truly needs a second one says so with [`Note::from_bytes`]. Not `PartialEq` either: compare
/// [`Note::commitment`]s, which are public.
pub struct Note {
    meta: NoteMeta,
    nullifier: Zeroizing<[u8; SECRET_BYTES]>,
    secret: Zeroizing<[u8; SECRET_BYTES]>,
}

impl fmt::Debug for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Note")
            .field("meta", &self.meta)
            .field("commitment", &field::to_hex(&self.commitment()))
            .finish_non_exhaustive()
    }
}

/// The note's text, as [`Note::to_text`]. Prefer `to_text`, which wipes its buffer: a `String`
/// made through `Display` (`to_string()`, `format!`) is not wiped.
impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl FromStr for Note {
    type Err = NoteError;

    fn from_str(s: &str) -> Result<Self, NoteError> {
        Note::parse(s)
    }
}

impl Note {
    /// A fresh note: 31 bytes each from the operating system's RNG.
    ///
    /// # Panics
    ///
    /// If the OS cannot provide randomness; there is no safe way to make a note without it.
    pub fn generate(meta: NoteMeta) -> Note {
        Self::generate_with(meta, &mut OsRng)
    }

    /// A note from the given RNG: for tests and the devnet's reproducible fixtures. Anything
    /// else should use [`Note::generate`].
    pub fn generate_with<R: RngCore + CryptoRng>(meta: NoteMeta, rng: &mut R) -> Note {
        let mut nullifier = Zeroizing::new([0u8; SECRET_BYTES]);
        let mut secret = Zeroizing::new([0u8; SECRET_BYTES]);
        rng.fill_bytes(&mut *nullifier);
        rng.fill_bytes(&mut *secret);
        Note {
            meta,
            nullifier,
            secret,
        }
    }

    /// A note from known bytes (big-endian), e.g. test vectors. The caller's arrays are copied,
    /// not wiped.
    pub fn from_bytes(
        meta: NoteMeta,
        nullifier: &[u8; SECRET_BYTES],
        secret: &[u8; SECRET_BYTES],
    ) -> Note {
        Note {
            meta,
            nullifier: Zeroizing::new(*nullifier),
            secret: Zeroizing::new(*secret),
        }
    }

    pub fn meta(&self) -> &NoteMeta {
        &self.meta
    }

    pub fn nullifier_bytes(&self) -> &[u8; SECRET_BYTES] {
        &self.nullifier
    }

    pub fn secret_bytes(&self) -> &[u8; SECRET_BYTES] {
        &self.secret
    }

    /// The nullifier as a field element (the circuit's private `nullifier`).
    pub fn nullifier(&self) -> Fr {
        fr_from_31_bytes(&self.nullifier)
    }

    /// The secret as a field element (the circuit's private `secret`).
    pub fn secret(&self) -> Fr {
        fr_from_31_bytes(&self.secret)
    }

    /// `hash2(nullifier, secret)`: the leaf the deposit adds to the tree.
    pub fn commitment(&self) -> Fr {
        hash2(self.nullifier(), self.secret())
    }

    /// `hash1(nullifier)`: what the withdrawal reveals and the contract marks spent.
    pub fn nullifier_hash(&self) -> Fr {
        hash1(self.nullifier())
    }

    /// The text form, in a buffer wiped on drop.
    pub fn to_text(&self) -> Zeroizing<String> {
        // Sized up front so the buffer never reallocates (which would leave an unwiped copy).
        let mut text = Zeroizing::new(String::with_capacity(256));
        write!(
            text,
            "{PREFIX}-{VERSION}-{}-{}-{}-0x",
            self.meta.token, self.meta.denomination, self.meta.network
        )
        .expect("writing to a String cannot fail");
        for byte in self.nullifier.iter().chain(self.secret.iter()) {
            text.push(HEX[(byte >> 4) as usize] as char);
            text.push(HEX[(byte & 0xf) as usize] as char);
        }
        let checksum = checksum(&text);
        text.push('-');
        text.push_str(&checksum);
        text
    }

    /// Reads a note's text form. Surrounding whitespace is ignored; anything else that differs
    /// from what [`Note::to_text`] writes is an error saying what is wrong.
    pub fn parse(text: &str) -> Result<Note, NoteError> {
        let text = text.trim();
        let mut fields = text.splitn(5, '-');
        if fields.next() != Some(PREFIX) {
            return Err(NoteError::NotATronpoolNote);
        }
        let mut next = |missing: &'static str| {
            fields
                .next()
                .filter(|f| !f.is_empty())
                .ok_or(NoteError::Incomplete { missing })
        };
        let version = next("version")?;
        if version != VERSION {
            return Err(NoteError::UnsupportedVersion {
                found: quote(version),
            });
        }
        let token: Token = next("token")?.parse()?;
        let denomination = parse_denomination(next("denomination")?)?;
        let rest = next("network")?;

        // The network may contain '-', the secret never does, so the first "-0x" ends the
        // network (a network part may not start with "0x").
        let Some(at) = rest.find("-0x") else {
            return Err(NoteError::MissingSecret);
        };
        let network = &rest[..at];
        check_network(network)?;
        let tail = &rest[at + 3..];
        // Everything before `tail` has been checked to be ASCII, so byte offsets are positions.
        let tail_start = text.len() - tail.len();

        // From here on the layout is fixed: 124 hex digits, '-', 8 hex digits. Checking
        // character by character (not splitting on '-') gives a stray '-' inside the hex its
        // position rather than a confusing "extra part".
        let chars: Vec<char> = tail.chars().collect();
        let sep = SECRET_HEX_LEN;
        let end = sep + 1 + CHECKSUM_HEX_LEN;
        if chars.len() != end || chars[sep] != '-' {
            if chars.len() > end && chars[sep] == '-' && chars[end] == '-' {
                return Err(NoteError::ExtraParts {
                    found: quote(&chars[end + 1..].iter().collect::<String>()),
                });
            }
            return Err(match chars.iter().position(|&c| c == '-') {
                None if chars.len() <= SECRET_HEX_LEN => NoteError::Incomplete {
                    missing: "checksum",
                },
                None => NoteError::WrongSecretLength { found: chars.len() },
                Some(dash) if dash != SECRET_HEX_LEN => {
                    NoteError::WrongSecretLength { found: dash }
                }
                Some(dash) => NoteError::BadChecksum {
                    found: quote(&chars[dash + 1..].iter().collect::<String>()),
                },
            });
        }
        for (i, &ch) in chars.iter().enumerate() {
            if i != sep && !matches!(ch, '0'..='9' | 'a'..='f') {
                return Err(NoteError::BadHexChar {
                    ch,
                    position: tail_start + i + 1,
                });
            }
        }
        // All ASCII now.
        let (body, written) = text.split_at(text.len() - CHECKSUM_HEX_LEN - 1);
        if written[1..] != *checksum(body) {
            return Err(NoteError::ChecksumMismatch);
        }
        let mut nullifier = Zeroizing::new([0u8; SECRET_BYTES]);
        let mut secret = Zeroizing::new([0u8; SECRET_BYTES]);
        let hex_digits = &tail.as_bytes()[..SECRET_HEX_LEN];
        for (i, byte) in nullifier.iter_mut().chain(secret.iter_mut()).enumerate() {
            *byte = (nibble(hex_digits[2 * i]) << 4) | nibble(hex_digits[2 * i + 1]);
        }
        Ok(Note {
            meta: NoteMeta {
                token,
                denomination,
                network: network.to_owned(),
            },
            nullifier,
            secret,
        })
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn nibble(digit: u8) -> u8 {
    match digit {
        b'0'..=b'9' => digit - b'0',
        b'a'..=b'f' => digit - b'a' + 10,
        _ => unreachable!("checked to be lower-case hex"),
    }
}

/// The first 4 bytes of SHA-256 of `body`, as 8 lower-case hex digits.
fn checksum(body: &str) -> String {
    let digest = Sha256::digest(body.as_bytes());
    hex::encode(&digest[..4])
}

/// A 31-byte big-endian value as a field element, directly (it is < 2^248 < r). Not through
/// `Fr::from_be_bytes_mod_order`, which copies its input to a heap buffer it does not wipe.
fn fr_from_31_bytes(bytes: &[u8; SECRET_BYTES]) -> Fr {
    let mut word = Zeroizing::new([0u8; 32]);
    word[1..].copy_from_slice(bytes);
    let mut limbs = Zeroizing::new([0u64; 4]);
    for (limb, chunk) in limbs.iter_mut().zip(word.rchunks_exact(8)) {
        *limb = u64::from_be_bytes(chunk.try_into().expect("8-byte chunks"));
    }
    Fr::from_bigint(BigInt::new(*limbs)).expect("a 248-bit value is below r")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    /// `Note::parse` without the note, which is not `PartialEq`.
    fn check(text: &str) -> Result<(), NoteError> {
        Note::parse(text).map(|_| ())
    }

    fn vector_note() -> Note {
        Note::from_bytes(
            NoteMeta::usdt(100, "devnet").unwrap(),
            &[0x07; 31],
            &[0x09; 31],
        )
    }

    /// The text of [`vector_note`]; checksum computed independently with Node's
    /// `crypto.createHash("sha256")`.
    const VECTOR_TEXT: &str = "tronpool-v1-usdt-100-devnet-0x0707070707070707070707070707070707070707070707070707070707070709090909090909090909090909090909090909090909090909090909090909-547f640a";

    /// The expected hashes were computed independently with circomlibjs 0.1.7 and
    /// light-poseidon 0.4.1, which agree.
    #[test]
    fn hashes_match_the_shared_vector() {
        let note = vector_note();
        assert_eq!(
            field::to_decimal(&note.nullifier_hash()),
            "21171223728281306300986411233849796644850486125695564991315061219356297506700"
        );
        assert_eq!(
            field::to_decimal(&note.commitment()),
            "13468587555533907663228958974895288819668643404975354979256185586024954593602"
        );
        assert_eq!(note.nullifier(), Fr::from_be_bytes_mod_order(&[0x07; 31]));
        assert_eq!(note.secret(), Fr::from_be_bytes_mod_order(&[0x09; 31]));
    }

    #[test]
    fn field_conversion_needs_no_reduction() {
        let max = [0xffu8; 31];
        let x = fr_from_31_bytes(&max);
        assert_eq!(x, Fr::from_be_bytes_mod_order(&max));
        assert_eq!(field::to_be_bytes(&x)[0], 0);
        assert_eq!(field::to_be_bytes(&x)[1..], max);
        let mut one = [0u8; 31];
        one[30] = 1;
        assert_eq!(fr_from_31_bytes(&one), Fr::from(1u64));
        let mut high = [0u8; 31];
        high[0] = 0x80;
        assert_eq!(field::to_be_bytes(&fr_from_31_bytes(&high))[1], 0x80);
    }

    #[test]
    fn text_form_is_pinned() {
        let note = vector_note();
        assert_eq!(*note.to_text(), VECTOR_TEXT);
        assert_eq!(note.to_string(), VECTOR_TEXT);
        let back = Note::parse(VECTOR_TEXT).unwrap();
        assert_eq!(back.nullifier_bytes(), &[0x07; 31]);
        assert_eq!(back.secret_bytes(), &[0x09; 31]);
        assert_eq!(back.meta(), note.meta());
    }

    #[test]
    fn text_round_trips() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for (denomination, network) in [
            (100, "devnet"),
            (500, "nile"),
            (1000, "shasta"),
            (10000, "mainnet"),
            (u64::MAX, "my-private-net-2"),
            (1, "a"),
            (3000, "abcdefghijklmnopqrstuvwxyz012345"),
        ] {
            let meta = NoteMeta::usdt(denomination, network).unwrap();
            let note = Note::generate_with(meta.clone(), &mut rng);
            let text = note.to_text();
            let back: Note = text.parse().unwrap();
            assert_eq!(back.meta(), &meta);
            assert_eq!(back.nullifier_bytes(), note.nullifier_bytes());
            assert_eq!(back.secret_bytes(), note.secret_bytes());
            assert_eq!(*back.to_text(), *text);
            assert_eq!(back.commitment(), note.commitment());
            let padded = format!(" \n\t{}\r\n ", &*text);
            assert_eq!(*Note::parse(&padded).unwrap().to_text(), *text);
        }
    }

    #[test]
    fn generated_notes_are_fresh() {
        let meta = NoteMeta::usdt(100, "devnet").unwrap();
        let a = Note::generate(meta.clone());
        let b = Note::generate(meta);
        assert_ne!(a.nullifier_bytes(), b.nullifier_bytes());
        assert_ne!(a.secret_bytes(), b.secret_bytes());
        assert_ne!(a.nullifier_bytes(), a.secret_bytes());
        assert_ne!(a.commitment(), b.commitment());
        let seeded = |seed| {
            Note::generate_with(
                NoteMeta::usdt(100, "devnet").unwrap(),
                &mut ChaCha8Rng::seed_from_u64(seed),
            )
        };
        assert_eq!(seeded(5).commitment(), seeded(5).commitment());
    }

    fn real_note() -> String {
        let note = Note::generate_with(
            NoteMeta::usdt(100, "devnet").unwrap(),
            &mut ChaCha8Rng::seed_from_u64(42),
        );
        note.to_text().to_string()
    }

    /// Replacing any one character, by anything, never yields a note, let alone a different
    /// one; and the error points at the right thing where that is knowable.
    #[test]
    fn every_single_character_change_is_caught() {
        let text = real_note();
        let secret_start = text.find("-0x").unwrap() + 3;
        let checksum_start = text.len() - CHECKSUM_HEX_LEN;
        let replacements: Vec<char> = (0x20u8..0x7f)
            .map(char::from)
            .chain(['\t', '\n', 'é', 'х', '０', '\u{200b}'])
            .collect();
        let mut tried = 0;
        for (i, original) in text.char_indices() {
            for &c in &replacements {
                if c == original {
                    continue;
                }
                let mut changed = String::with_capacity(text.len() + 4);
                changed.push_str(&text[..i]);
                changed.push(c);
                changed.push_str(&text[i + 1..]);
                tried += 1;
                let error = match Note::parse(&changed) {
                    Ok(note) => panic!("changing position {} to {c:?} parsed, as {note:?}", i + 1),
                    Err(e) => e,
                };
                assert!(!error.to_string().is_empty());
                let hex = c.is_ascii_digit() || ('a'..='f').contains(&c);
                if (secret_start..text.len()).contains(&i) && i != checksum_start - 1 {
                    // Inside the secret or the checksum.
                    if hex {
                        assert_eq!(error, NoteError::ChecksumMismatch, "position {}", i + 1);
                    } else if !(i == text.len() - 1 && c.is_whitespace()) {
                        // (Whitespace at the very end is trimmed, shortening the checksum.)
                        assert_eq!(
                            error,
                            NoteError::BadHexChar {
                                ch: c,
                                position: i + 1
                            },
                            "{c:?} at {}",
                            i + 1
                        );
                    }
                }
            }
        }
        assert!(tried > 15_000, "{tried}");
    }

    #[test]
    fn deletions_and_insertions_are_caught() {
        let text = real_note();
        for i in 0..text.len() {
            let deleted = format!("{}{}", &text[..i], &text[i + 1..]);
            assert!(
                Note::parse(&deleted).is_err(),
                "deleting position {}",
                i + 1
            );
            for c in ['0', 'a', 'f', '-', 'x', 'v', 'z', ' '] {
                let inserted = format!("{}{c}{}", &text[..i], &text[i..]);
                if inserted.trim() == text {
                    continue; // a space at either end is trimmed
                }
                assert!(
                    Note::parse(&inserted).is_err(),
                    "inserting {c:?} at {}",
                    i + 1
                );
            }
        }
    }

    #[test]
    fn truncation_is_caught() {
        let text = real_note();
        for len in 0..text.len() {
            assert!(Note::parse(&text[..len]).is_err(), "first {len} characters");
        }
        assert_eq!(check(""), Err(NoteError::NotATronpoolNote));
        assert_eq!(
            check("tronpool"),
            Err(NoteError::Incomplete { missing: "version" })
        );
        assert_eq!(
            check("tronpool-"),
            Err(NoteError::Incomplete { missing: "version" })
        );
        assert_eq!(
            check("tronpool-v1"),
            Err(NoteError::Incomplete { missing: "token" })
        );
        assert_eq!(
            check("tronpool-v1-usdt-"),
            Err(NoteError::Incomplete {
                missing: "denomination"
            })
        );
        assert_eq!(
            check("tronpool-v1-usdt-100"),
            Err(NoteError::Incomplete { missing: "network" })
        );
        assert_eq!(
            check("tronpool-v1-usdt-100-devnet"),
            Err(NoteError::MissingSecret)
        );
        assert_eq!(
            check("tronpool-v1-usdt-100-devnet-0"),
            Err(NoteError::MissingSecret)
        );
        let secret_end = text.len() - CHECKSUM_HEX_LEN - 1;
        for cut in [secret_end - 100, secret_end - 1, secret_end] {
            assert_eq!(
                check(&text[..cut]),
                Err(NoteError::Incomplete {
                    missing: "checksum"
                })
            );
        }
        let message = Note::parse(&text[..secret_end]).unwrap_err().to_string();
        assert!(
            message.contains("incomplete") && message.contains("checksum"),
            "{message}"
        );
        assert_eq!(
            check(&text[..secret_end + 1]),
            Err(NoteError::BadChecksum {
                found: "\"\"".into()
            })
        );
        assert_eq!(
            check(&text[..text.len() - 1]),
            Err(NoteError::BadChecksum {
                found: format!("{:?}", &text[secret_end + 1..text.len() - 1])
            })
        );
    }

    #[test]
    fn extra_parts_are_refused() {
        let text = real_note();
        assert_eq!(
            check(&format!("{text}-extra")),
            Err(NoteError::ExtraParts {
                found: "\"extra\"".into()
            })
        );
        assert_eq!(
            check(&format!("{text}-")),
            Err(NoteError::ExtraParts {
                found: "\"\"".into()
            })
        );
        assert!(matches!(
            Note::parse(&format!("{text}0")),
            Err(NoteError::BadChecksum { .. })
        ));
        assert!(matches!(
            Note::parse(&format!("{text} {text}")),
            Err(NoteError::ExtraParts { .. } | NoteError::BadChecksum { .. })
        ));
        assert_eq!(
            check(&format!("note: {text}")),
            Err(NoteError::NotATronpoolNote)
        );
        // A second secret before the checksum.
        let secret_end = text.len() - CHECKSUM_HEX_LEN - 1;
        let doubled = format!("{}-{}", &text[..secret_end], &text[secret_end - 124..]);
        assert!(Note::parse(&doubled).is_err());
        // An extra part in the middle becomes part of the network name, and the checksum
        // catches it.
        let middle = text.replacen("-devnet-", "-devnet-extra-", 1);
        assert_eq!(check(&middle), Err(NoteError::ChecksumMismatch));
    }

    /// Each error on its own, with the message a user sees.
    #[test]
    fn errors_say_what_is_wrong() {
        let text = real_note();
        let with = |from: &str, to: &str| Note::parse(&text.replacen(from, to, 1)).unwrap_err();
        let secret_start = text.find("-0x").unwrap() + 3;
        let secret_end = text.len() - CHECKSUM_HEX_LEN - 1;
        let splice = |start: usize, end: usize, by: &str| {
            Note::parse(&format!("{}{by}{}", &text[..start], &text[end..])).unwrap_err()
        };
        let cases: Vec<(NoteError, &str)> = vec![
            (
                Note::parse("tornado-eth-0.1-1-0x00").unwrap_err(),
                "not a tronpool note",
            ),
            (with("tronpool-", "Tronpool-"), "not a tronpool note"),
            (
                with("-v1-", "-v2-"),
                "unsupported note version \"v2\": this build reads v1 notes",
            ),
            (
                with("-usdt-", "-usdc-"),
                "unknown token \"usdc\": tronpool notes are for usdt",
            ),
            (with("-100-", "-0100-"), "bad denomination \"0100\""),
            (with("-100-", "-1e2-"), "bad denomination \"1e2\""),
            (with("-100-", "-0-"), "bad denomination \"0\""),
            (
                with("-100-", "-99999999999999999999-"),
                "bad denomination \"99999999999999999999\"",
            ),
            (with("-devnet-", "-DevNet-"), "bad network name \"DevNet\""),
            (
                with("-devnet-", "-dev_net-"),
                "bad network name \"dev_net\"",
            ),
            (with("-devnet-", "-2net-"), "bad network name \"2net\""),
            (
                with("-devnet-", "-devnet--0x"),
                "bad network name \"devnet-\"",
            ),
            (with("-0x", "-0X"), "no secret"),
            (
                splice(secret_start, secret_start + 2, ""),
                "wrong secret length: found 122 hex digits, expected 124",
            ),
            (
                splice(secret_end, secret_end, "00"),
                "wrong secret length: found 126 hex digits, expected 124",
            ),
            (
                splice(secret_start + 2, secret_start + 3, "G"),
                "bad hex character 'G' at position 33 of the note",
            ),
            (
                splice(secret_start + 2, secret_start + 3, "g"),
                "bad hex character 'g' at position 33 of the note",
            ),
            (
                splice(secret_start, secret_start + 1, "A"),
                "bad hex character 'A' at position 31 of the note",
            ),
            (
                splice(text.len() - 1, text.len(), "G"),
                "bad hex character 'G' at position 163 of the note",
            ),
            (splice(text.len() - 3, text.len(), ""), "bad checksum"),
        ];
        for (error, expected) in cases {
            let message = error.to_string();
            assert!(
                message.contains(expected),
                "{message:?} should contain {expected:?}"
            );
        }
        // The last character of the checksum, changed to another hex digit.
        let last = text.chars().last().unwrap();
        let other = if last == '0' { '1' } else { '0' };
        let mistyped = format!("{}{other}", &text[..text.len() - 1]);
        let error = Note::parse(&mistyped).unwrap_err();
        assert_eq!(error, NoteError::ChecksumMismatch);
        assert_eq!(
            error.to_string(),
            "the note is mistyped or damaged: checksum mismatch"
        );
        assert_eq!(
            NoteError::WrongSecretLength { found: 7 }.to_string(),
            "wrong secret length: found 7 hex digits, expected 124"
        );
    }

    /// A mangled note can put the secret where a short field belongs; it must not be echoed
    /// into an error message (and from there into a log).
    #[test]
    fn errors_never_echo_the_secret() {
        let text = real_note();
        let secret = &text[text.find("-0x").unwrap() + 3..text.len() - CHECKSUM_HEX_LEN - 1];
        for mangled in [
            text.replacen("-v1-usdt-100-devnet", "", 1),
            text.replacen("-usdt-100-devnet", "", 1),
            text.replacen("-100-devnet", "", 1),
            text.replacen("-devnet-0x", "-", 1),
            text.replacen("-0x", "-", 1),
            format!("{text}-{secret}"),
            text.replace('-', "_"),
        ] {
            let message = Note::parse(&mangled).unwrap_err().to_string();
            assert!(!message.contains(&secret[..16]), "{message}");
            assert!(!message.contains(&secret[secret.len() - 16..]), "{message}");
        }
    }

    #[test]
    fn debug_shows_only_public_things() {
        let note = vector_note();
        let debug = format!("{note:?}");
        assert!(debug.contains("devnet") && debug.contains("100"), "{debug}");
        assert!(
            debug.contains(&field::to_hex(&note.commitment())),
            "{debug}"
        );
        for secret in ["0707", "0909", "7, 7", "9, 9", VECTOR_TEXT] {
            assert!(!debug.contains(secret), "{debug}");
        }
        let pretty = format!("{note:#?}");
        assert!(!pretty.contains("0707") && !pretty.contains("0909"));
    }

    #[test]
    fn meta_is_validated() {
        assert!(NoteMeta::usdt(0, "devnet").is_err());
        for bad in [
            "",
            "-nile",
            "nile-",
            "Nile",
            "ni le",
            "nile.net",
            "1nile",
            "net-0x1",
            "é",
            &"a".repeat(33),
        ] {
            assert!(
                matches!(NoteMeta::usdt(100, bad), Err(NoteError::BadNetwork { .. })),
                "{bad:?}"
            );
        }
        for good in [
            "devnet", "nile", "shasta", "mainnet", "my-net", "net-2", "a--b", "x0x",
        ] {
            let meta = NoteMeta::usdt(100, good).unwrap();
            assert_eq!(meta.network(), good);
            assert_eq!(meta.token(), Token::Usdt);
            assert_eq!(meta.denomination(), 100);
        }
        assert_eq!("usdt".parse::<Token>(), Ok(Token::Usdt));
        assert!("USDT".parse::<Token>().is_err());
    }

    #[test]
    fn meta_serde_validates() {
        let meta = NoteMeta::usdt(500, "nile").unwrap();
        let json = serde_json::to_string(&meta).unwrap();
        assert_eq!(
            json,
            r#"{"token":"usdt","denomination":500,"network":"nile"}"#
        );
        assert_eq!(serde_json::from_str::<NoteMeta>(&json).unwrap(), meta);
        let bad = serde_json::from_str::<NoteMeta>(
            r#"{"token":"usdt","denomination":500,"network":"Nile"}"#,
        );
        assert!(bad.unwrap_err().to_string().contains("bad network name"));
        assert!(
            serde_json::from_str::<NoteMeta>(
                r#"{"token":"usdt","denomination":0,"network":"nile"}"#
            )
            .is_err()
        );
        assert!(
            serde_json::from_str::<NoteMeta>(
                r#"{"token":"trx","denomination":1,"network":"nile"}"#
            )
            .is_err()
        );
    }
}
