# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_tronpool_global_optspecs
    string join \n network= node= proxy= sync-from= config= key-file= json y/yes v/verbose q/quiet log-format= no-color h/help V/version
end

function __fish_tronpool_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_tronpool_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_tronpool_using_subcommand
    set -l cmd (__fish_tronpool_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c tronpool -n "__fish_tronpool_needs_command" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_needs_command" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_needs_command" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_needs_command" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_needs_command" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_needs_command" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_needs_command" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_needs_command" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_needs_command" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_needs_command" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_needs_command" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_needs_command" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tronpool -n "__fish_tronpool_needs_command" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "pools" -d 'The pools of the network: balance, deposits, root and relayer fee'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "balance" -d 'USDT and TRX of an account (default: yours), and what the pools may take'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "approve" -d 'Let a pool take USDT for deposits'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "deposit" -d 'Deposit into a pool: makes a note per deposit and stores it before sending anything'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "withdraw" -d 'Withdraw a note to an address, signed and paid for by your key (links the two)'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "pool" -d 'A pool\'s settings: who pays its callers\' energy'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "stake" -d 'Stake TRX for energy, release it, lend it to another account (Stake 2.0)'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "relay" -d 'Withdraw through a relayer that pays the energy (the private way), or ask its terms'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "notes" -d 'Your notes: list, show, export, import, check against the chain, recover from the mnemonic, report a deposit and its withdrawal'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "config" -d 'Show and create the configuration'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "key" -d 'Create, import and inspect the signing key'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "mnemonic" -d 'The mnemonic deposits derive their notes from: create or import it'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "secrets" -d 'Encrypt the stored secrets (notes, key, mnemonic) with a passphrase, or see whether they are'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "tx" -d 'Decode, sign and broadcast raw transactions (for external signers)'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "deploy" -d 'Deploy the hasher, the verifier and the pools to a network, and record them in the config file'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "ceremony" -d 'The trusted-setup ceremony: export the circuit, import its keys'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "serve" -d 'Serve the REST API (on the devnet with no node configured, with its own devnet)'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "devnet" -d 'Run a local TRON chain with USDT and the pools deployed (java-tron\'s HTTP API)'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "generate" -d 'Write shell completions and man pages'
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand pools" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -l allowance -d 'Also show the allowance each pool has from this account'
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand balance" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l denom -d 'The pool: its denomination in USDT (100, 500, 1000, 3000, 5000, 10000)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l count -d 'How many deposits to allow (the default amount is what they take and 0.000001 USDT more, so the allowance never falls back to zero and the next approval costs less)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l amount -d 'Allow this much USDT instead (e.g. 250.5)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l from -d 'With --unsigned: the address that will sign (default: the signing key\'s)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l unlimited -d 'Allow any amount (the largest uint256), so later deposits need no approval'
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l unsigned -d 'Print the unsigned transaction (the API\'s JSON) for an external signer instead'
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand approve" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l denom -d 'The pool: its denomination in USDT (100, 500, 1000, 3000, 5000, 10000)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l count -d 'How many deposits (one note each)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l from -d 'With --unsigned: the address that will sign (default: the signing key\'s)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l unsigned -d 'Store the notes and print unsigned deposits (the API\'s JSON) for an external signer; `tronpool notes check` settles them once they are broadcast'
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l random -d 'Make random notes even though a mnemonic is stored (such notes cannot be recovered from the mnemonic: back them up with `tronpool notes export`)'
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l insert -d 'Insert the deposits into the pool\'s tree at once with a batch proof, paid by your key (a queued pool; otherwise they wait for a batcher, such as `tronpool serve`\'s)'
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand deposit" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l to -d 'Who receives the USDT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l refund -d 'TRX to send along to the recipient (paid by you), e.g. 5' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l from -d 'With --unsigned: the address that will sign and pay (default: the signing key\'s)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l dry-run -d 'Sync, prove, verify and simulate, but send nothing'
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l unsigned -d 'Print the unsigned transaction (the API\'s JSON) for an external signer instead'
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l insert -d 'When the note\'s deposit still waits in its pool\'s queue, insert it first with a batch proof (paid by your key; the batch\'s insertion fees are credited to you)'
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand withdraw" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -f -a "sponsor" -d 'Change who pays the pool\'s callers\' energy (only its deployer can); without a change, show it'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -f -a "sync" -d 'Bring the cached deposits and withdrawals of the pools up to date (from the sources of --sync-from) and check the tree\'s root with the pool'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and not __fish_seen_subcommand_from sponsor sync insert" -f -a "insert" -d 'Insert the pool\'s queued deposits into its tree with batch proofs, paid by your key (each batch\'s insertion fees are credited to you; `tronpool relay collect` collects them)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -l denom -d 'The pool: its denomination in USDT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -l caller-energy-percent -d 'The percent of each call\'s energy the pool\'s callers pay (0: the deployer\'s stake pays it all, up to --origin-energy-limit; what the stake cannot cover falls back to them)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -l origin-energy-limit -d 'The most energy the deployer pays for one call' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sponsor" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -l denom -d 'Only this pool: its denomination in USDT (default: every pool)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from sync" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -l denom -d 'The pool: its denomination in USDT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand pool; and __fish_seen_subcommand_from insert" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -f -a "energy" -d 'Stake TRX for energy: energy from stake is spent before any TRX is burned'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -f -a "release" -d 'Start releasing staked TRX (it can be withdrawn after the network\'s unfreeze delay, 14 days on mainnet)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -f -a "withdraw" -d 'Take back released TRX whose delay has passed'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -f -a "delegate" -d 'Lend the energy of staked TRX to another account (a relayer, say)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and not __fish_seen_subcommand_from energy release withdraw delegate undelegate" -f -a "undelegate" -d 'Take back energy lent to an account'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from energy" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from release" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from withdraw" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -l to -d 'The account that gets the energy' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from delegate" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -l from -d 'The account it was lent to' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand stake; and __fish_seen_subcommand_from undelegate" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -f -a "withdraw" -d 'Withdraw a note through a relayer, which pays the energy and takes its fee'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -f -a "status" -d 'A relayer\'s address, balance and fees'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and not __fish_seen_subcommand_from withdraw status collect" -f -a "collect" -d 'Collect the fees a relayer earned (they stay in the pools until collected)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l to -d 'Who receives the USDT (less the relayer\'s fee)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l relayer -d 'The relayer\'s base URL (default: the network\'s configured relayer; on the devnet, its own)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l refund -d 'TRX the relayer sends along to the recipient (its fee must cover it), e.g. 2' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l max-fee -d 'The most fee to accept, in USDT (default: `max_fee` in the config, else twice what the relay costs at the chain\'s prices and never more than 25% of the pool; needed when this client cannot price a relay)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l dry-run -d 'Sync, prove, verify and simulate, but send nothing'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from withdraw" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -l relayer -d 'The relayer\'s base URL (default: the network\'s configured relayer; on the devnet, its own)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l denom -d 'Only the pool of this many USDT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l min -d 'Only pools holding at least this much USDT for the relayer (default: any amount)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l relayer-key-file -d 'The relayer\'s private key file (else TRONPOOL_RELAYER_PRIVATE_KEY; on the devnet, dev account 1)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l dry-run -d 'Show what is due, send nothing'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand relay; and __fish_seen_subcommand_from collect" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -f -a "list" -d 'Every note with its state (created, deposited, withdrawn, failed); no secrets'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -f -a "show" -d 'One note: its record, its history and its text (the secret)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -f -a "export" -d 'Every note\'s text, one per line, to back them up'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -f -a "import" -d 'Store notes from a file or stdin (one per line), then check them against the chain'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -f -a "check" -d 'Ask the chain what became of each note (or of the ones named)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -f -a "recover" -d 'Find every deposit made with the mnemonic (stored, or read from --from) in each pool, and which were withdrawn, and store their notes'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and not __fish_seen_subcommand_from list show export import check recover report" -f -a "report" -d 'A note\'s deposit and the withdrawal it funded (amounts, times, txids, recipient), for an auditor; never the note itself'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -s o -l out -d 'Write to this file (created readable only by you) instead of stdout' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -l encrypted -d 'Seal the file with a passphrase (argon2id, XChaCha20-Poly1305), read from TRONPOOL_PASSPHRASE_FILE or typed twice; `notes import` opens it'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from export" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -l from -d 'Read the mnemonic from this file (`-` for standard input) instead of the stored one; it is stored when none is' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -l gap-limit -d 'Stop looking in a pool after this many indices in a row with no deposit' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from recover" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand notes; and __fish_seen_subcommand_from report" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -f -a "init" -d 'Write a commented config.toml (never replaces an existing one)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -f -a "show" -d 'Print every setting, its value and where it came from'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -f -a "path" -d 'Print where the config file and the data folder are'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from init" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and __fish_seen_subcommand_from path" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -f -a "new" -d 'Generate a key from the operating system\'s random source and store it (mode 0600)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -f -a "import" -d 'Store an existing key (mode 0600), never taking it as an argument'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and not __fish_seen_subcommand_from new import address" -f -a "address" -d 'Print the address of the key that signing commands use, and where it comes from'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -l out -d 'Write the key to this file instead of the data folder' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from new" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -l from -d 'Read the key from this file (`-` for standard input)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -l out -d 'Store the key in this file instead of the data folder' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand key; and __fish_seen_subcommand_from address" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -f -a "new" -d 'Create a 24-word mnemonic, store it (mode 0600) and print it once: write it down'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -f -a "import" -d 'Store an existing mnemonic, read from --from FILE, standard input or a hidden prompt (never an argument)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and not __fish_seen_subcommand_from new import status" -f -a "status" -d 'Whether a mnemonic is stored, and its id (which reveals nothing of it)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from new" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -l from -d 'Read the mnemonic from this file (`-` for standard input)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand mnemonic; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -f -a "status" -d 'Whether the secrets are encrypted: the vault, the key, the mnemonic, each network\'s notes'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and not __fish_seen_subcommand_from status encrypt" -f -a "encrypt" -d 'Encrypt the stored secrets with a passphrase (argon2id, XChaCha20-Poly1305), converting what is stored in the clear; run again to finish a conversion that was interrupted'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tronpool -n "__fish_tronpool_using_subcommand secrets; and __fish_seen_subcommand_from encrypt" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -f -a "decode" -d 'Show what a transaction does, who signed it and whether it is still valid'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -f -a "sign" -d 'Sign a transaction with your key and print the signed JSON'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -f -a "broadcast" -d 'Submit a signed transaction to the node and print its txID'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from decode" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -s o -l out -d 'Write the signed JSON here instead of standard output' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from sign" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and __fish_seen_subcommand_from broadcast" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l denominations -d 'The pools to deploy, in whole USDT [default: 100,500,1000,3000,5000,10000, or the ones of the deployment being resumed]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l zkey -d 'The withdraw circuit\'s ceremony keys (a snarkjs .zkey for `tronpool ceremony r1cs`); imported first. Not needed to resume: the record names its keys' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l batch-zkey -d 'The batch circuit\'s ceremony keys (for `tronpool ceremony r1cs --circuit batch`); imported first' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l ptau -d 'The Phase 1 transcript the zkeys are verified against on import (see `ceremony import`; the batch circuit needs a power of 15 or more)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l batch-ptau -d 'Another transcript for --batch-zkey [default: --ptau]' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l insertion-fee -d 'What each deposit escrows for the batch that inserts it, in USDT [default: 0.25, which pays a full batch\'s energy at today\'s prices; docs/batches.md]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l caller-energy-percent -d 'The percent of each pool call\'s energy its callers pay [default: 0: the deployer\'s staked energy pays it, up to --origin-energy-limit a call, and what the stake cannot cover falls back to the caller]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l origin-energy-limit -d 'The most energy the deployer pays for one pool call [default: 600000, a deposit or a relayed withdrawal with 20% to spare]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l rehearsal -d 'On a tronpool devnet: import the zkeys as INSECURE rehearsal keys (see `ceremony import`)'
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l dry-run -d 'Check and price everything, then stop before signing'
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l check -d 'Check the recorded deployment on chain instead of deploying: the network runs the contracts, the hasher is our Poseidon, the verifier holds the ceremony\'s keys, and each pool is wired to them, the USDT and its denomination. Exit 4 if anything differs'
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l no-test-deposit -d 'Don\'t end the deployment with a test deposit: then the withdrawal check runs only if a note of one of these pools is already stored here'
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l test-deposit -d 'With --check: deposit a test note into the smallest pool (from the signing key, stored here, yours to withdraw) when no note of these pools is stored here to check a withdrawal with'
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand deploy" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -f -a "r1cs" -d 'Write a circuit\'s constraint system in circom\'s .r1cs format, for `snarkjs groth16 setup`'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -f -a "verify" -d 'Check that a .zkey derives from its circuit (withdraw or batch) and a Phase 1 transcript through the contributions it records, as `snarkjs zkey verify` does; exit 4 if it does not'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -f -a "import" -d 'Verify a ceremony\'s .zkey and keep it, named by its verifying key, for withdrawals, batches and `deploy`. Off a devnet the key must verify against a transcript the network accepts (--ptau) and end in a beacon'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and not __fish_seen_subcommand_from r1cs verify import keys" -f -a "keys" -d 'List the imported keys'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -l circuit -d 'Which circuit: withdraw (needs a ptau of power 13 or more) or batch (15 or more)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -s o -l output -d 'The file to write (default: standard output, when it is not a terminal)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from r1cs" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -l ptau -d 'The Phase 1 transcript the ceremony started from, prepared for Phase 2' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from verify" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -l ptau -d 'The Phase 1 transcript to verify it against (a *_final_*.ptau the network accepts)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -l rehearsal -d 'On a tronpool devnet: accept a key short of that (unverified, another transcript, no beacon) as an INSECURE rehearsal key'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand ceremony; and __fish_seen_subcommand_from keys" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l listen -d 'Address and port to listen on (port 0 picks a free one)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l workers -d 'Threads that answer requests and run the relayer (default: one per core). Fewer than the cores suits a machine whose cores other busy processes share (a proxy in front, the node): the threads then wake each other less' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l rate-limit -d 'Requests per client per minute on the general endpoints' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-rate-limit -d 'Requests per client per minute on /api/relayer/status, and as many on /api/relayer/withdraw (each its own budget)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l trusted-proxy -d 'A reverse proxy, by address or CIDR range, whose Forwarded or X-Forwarded-For names the client (repeatable)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l cors-origin -d 'An origin browsers may call the API from (repeatable; default: any)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l body-limit -d 'Largest request body in bytes' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l max-in-flight -d 'Most requests in flight at once; past it a request is answered 503 at once' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l header-read-timeout -d 'Longest a connection may take to send a request\'s headers, or sit idle between requests, before it is closed' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l request-timeout -d 'Longest a request may take before it is answered 504' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l cache-ttl -d 'How long pool reads are cached (about a block)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-fee -d 'The least relayer fee for a pool, in USDT, whatever the prices (repeatable)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-margin -d 'Percent over the relay\'s cost (its energy and refund at today\'s prices) in the fee' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-expected-energy -d 'Energy a normal relay costs: what the fee is quoted for' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-max-energy -d 'The most energy one relay may use, and its fee limit (default: the expected energy + 15%, room for the relayer\'s first fee into a USDT balance it did not have)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l price-source -d 'Where the TRX/USDT rate comes from: fixed:USDT_PER_TRX or pair:ADDRESS (a SunSwap V2 WTRX/USDT pair; default: price_source in the config, on the devnet its own pair)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l price-max-age -d 'A pair\'s price is stale when it has not traded for this long' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l price-window -d 'A pair is priced at the larger of its spot price and its average over this long, so a swap can raise the fee but not lower it' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l price-floor -d 'Never price TRX below this many USDT, whatever the source says (default: price_floor in the config; none)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l database -d 'Keep the relayer\'s jobs, journal, leases and rate budgets in this PostgreSQL database (postgres://user@host:port/database), shared by every replica of this server; else TRONPOOL_DATABASE_URL, `database` in the config, or the network\'s SQLite file. The password goes in TRONPOOL_DATABASE_PASSWORD, the variable or the config, never here: any user of the machine can read a process\'s arguments. `?sslmode=require` for TLS, the certificate checked against the system\'s roots and TRONPOOL_DATABASE_CA' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-key-file -d 'The relayer\'s private key file (else TRONPOOL_RELAYER_PRIVATE_KEY; on the devnet, dev account 1)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-min-trx -d 'Refuse relaying below this TRX balance' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-max-refund -d 'The most TRX the relayer forwards to a recipient as a refund' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-poll -d 'How often the relayer checks its unfinished jobs' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-collect-above -d 'Collect a pool\'s fees once they reach this much USDT (the fees stay in the pools until collected); 0 never collects by itself (`tronpool relay collect` does it by hand)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-collect-every -d 'How often the relayer looks at the fees due' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l batch-max-wait -d 'The longest a deposit waits in a queued pool before the relayer\'s batcher inserts it in a batch that is not full (a full block of 32 goes at once); 0 runs no batcher' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l batch-poll -d 'How often the batcher looks at the queued pools' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l batch-loss-budget -d 'The most TRX the batcher loses in 24 hours on batches that burn more than their insertion fees are worth at the relay price (a batch sent because a deposit waited --batch-max-wait, or any batch when TRX is dear); past it such batches wait' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-refuse-contract-refund -d 'Refuse refunds to recipients that hold contract code (by default they are sent: the pool gives a recipient at most 22,300 energy to spend on receiving one)'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-allow-contract-refund -d 'What refunds to contracts needed before the pool capped their energy; now the default'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l no-relayer -d 'Do not relay withdrawals, even with a relayer key'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l no-web -d 'Do not serve the web page at / (the API only)'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l host -d 'Address to listen on' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l port -d 'Port to listen on (0 picks a free one)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l block-time -d 'A block every SECONDS, empty or not, holding the transactions broadcast since the last one, as TRON\'s producers make one every 3 s (reads see pending transactions at once; receipts come with the block). 0: every transaction is sealed into its own block before the broadcast answers, and no empty blocks are made' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l accounts -d 'How many funded dev accounts to create (at most 1000)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l state -d 'Load the chain from FILE if it exists; save it there on exit' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l cpu-speed -d 'How fast the modeled block producer runs java-tron\'s VM: 1 is a producer-class node (a 4-pair pairing in 61 ms), 2 twice as fast, 0.33 a cold JVM. Contract runs past getMaxCpuTimeOfOneTx (80 ms) of modeled time end OUT_OF_TIME, as on TRON' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l usdt-energy-factor -d 'The devnet USDT\'s dynamic-energy factor, in 1/10,000: every opcode it runs costs (1 + N/10000) × its energy. Mainnet USDT\'s is 34000 (×4.4), the default at genesis; 0 prices it at its base energy' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l no-cancun -d 'Run as a network without TVM Cancun (getAllowTvmCancun 0): TLOAD, TSTORE and MCOPY are invalid opcodes from block 2'
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l no-shanghai -d 'Run as a network without TVM Shanghai (getAllowTvmShangHai 0): PUSH0 is invalid from block 2'
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l no-sponsor -d 'Start without the deployer\'s energy stake: the pools stay sponsored, but with nothing staked their callers pay all their energy, as under a deployer that staked nothing. A new chain only; --state keeps what it has'
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l no-events-api -d 'Serve no TronGrid events API (`/v1/*` answers 404, as on a plain java-tron node): clients must sync the pools another way, such as a block scan'
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -l out-dir -d 'Folder to write completions/ and man/ into' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -l proxy -d 'Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT (names resolved by the proxy, as Tor needs) or http://HOST:PORT' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -l sync-from -d 'Where pools are synced from, in order, comma-separated: a tronpool server\'s URL, `events` (TronGrid\'s events API), `scan` (the node\'s blocks) [default: events,scan]' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand generate" -s V -l version -d 'Print version'
