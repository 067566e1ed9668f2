# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_tronpool_global_optspecs
    string join \n network= node= config= key-file= json y/yes v/verbose q/quiet log-format= no-color h/help V/version
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
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "config" -d 'Show and create the configuration'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "key" -d 'Create, import and inspect the signing key'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "tx" -d 'Decode, sign and broadcast raw transactions (for external signers)'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "serve" -d 'Serve the REST API (on the devnet with no node configured, with its own devnet)'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "devnet" -d 'Run a local TRON chain with USDT and the pools deployed (java-tron\'s HTTP API)'
complete -c tronpool -n "__fish_tronpool_needs_command" -f -a "generate" -d 'Write shell completions and man pages'
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand config; and not __fish_seen_subcommand_from init show path" -l node -d 'TRON node URL, overriding the network\'s' -r
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
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand tx; and not __fish_seen_subcommand_from decode sign broadcast" -l node -d 'TRON node URL, overriding the network\'s' -r
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
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l listen -d 'Address and port to listen on (port 0 picks a free one)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l rate-limit -d 'Requests per client per minute on the general endpoints' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-rate-limit -d 'Requests per client per minute on /api/relayer/*' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l trusted-proxy -d 'A reverse proxy whose X-Forwarded-For names the client (repeatable)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l cors-origin -d 'An origin browsers may call the API from (repeatable; default: any)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l body-limit -d 'Largest request body in bytes' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l request-timeout -d 'Longest a request may take before it is answered 504' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l cache-ttl -d 'How long pool reads are cached (about a block)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-fee -d 'The relayer fee for a pool, in USDT (repeatable; default 1 USDT or 0.3%, the larger)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-key-file -d 'The relayer\'s private key file (else TRONPOOL_RELAYER_PRIVATE_KEY; on the devnet, dev account 1)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-min-trx -d 'Refuse relaying below this TRX balance' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-max-refund -d 'The most TRX the relayer forwards to a recipient as a refund' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l relayer-poll -d 'How often the relayer checks its unfinished jobs' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l no-relayer -d 'Do not relay withdrawals, even with a relayer key'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l json -d 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -s y -l yes -d 'Answer yes to every confirmation (needed to spend without a terminal)'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -s v -l verbose -d 'More logging on stderr (-v, -vv, -vvv)'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -s q -l quiet -d 'Print only results and errors'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -l no-color -d 'Never color the output (NO_COLOR is honoured too)'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -s h -l help -d 'Print help'
complete -c tronpool -n "__fish_tronpool_using_subcommand serve" -s V -l version -d 'Print version'
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l host -d 'Address to listen on' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l port -d 'Port to listen on (0 picks a free one)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l block-time -d 'Seconds without transactions before an empty block is produced (0: never). Every transaction is sealed into its own block at once either way' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l accounts -d 'How many funded dev accounts to create (at most 1000)' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l state -d 'Load the chain from FILE if it exists; save it there on exit' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l network -d 'Network: devnet, nile, shasta, mainnet, or one defined in the config file' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l node -d 'TRON node URL, overriding the network\'s' -r
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l config -d 'Config file to read instead of the default one' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l key-file -d 'File holding the private key to sign with (64 hex digits)' -r -F
complete -c tronpool -n "__fish_tronpool_using_subcommand devnet" -l log-format -d 'Log lines as text or as JSON objects (for a log collector)' -r -f -a "text\t''
json\t''"
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
