
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'tronpool' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'tronpool'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'tronpool' {
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Show and create the configuration')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'Create, import and inspect the signing key')
            [CompletionResult]::new('tx', 'tx', [CompletionResultType]::ParameterValue, 'Decode, sign and broadcast raw transactions (for external signers)')
            [CompletionResult]::new('devnet', 'devnet', [CompletionResultType]::ParameterValue, 'Run a local TRON chain with USDT and the pools deployed (java-tron''s HTTP API)')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write shell completions and man pages')
            break
        }
        'tronpool;config' {
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write a commented config.toml (never replaces an existing one)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting, its value and where it came from')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print where the config file and the data folder are')
            break
        }
        'tronpool;config;init' {
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tronpool;config;show' {
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tronpool;config;path' {
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tronpool;key' {
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Generate a key from the operating system''s random source and store it (mode 0600)')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Store an existing key (mode 0600), never taking it as an argument')
            [CompletionResult]::new('address', 'address', [CompletionResultType]::ParameterValue, 'Print the address of the key that signing commands use, and where it comes from')
            break
        }
        'tronpool;key;new' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Write the key to this file instead of the data folder')
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tronpool;key;import' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Read the key from this file (`-` for standard input)')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Store the key in this file instead of the data folder')
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tronpool;key;address' {
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tronpool;tx' {
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('decode', 'decode', [CompletionResultType]::ParameterValue, 'Show what a transaction does, who signed it and whether it is still valid')
            [CompletionResult]::new('sign', 'sign', [CompletionResultType]::ParameterValue, 'Sign a transaction with your key and print the signed JSON')
            [CompletionResult]::new('broadcast', 'broadcast', [CompletionResultType]::ParameterValue, 'Submit a signed transaction to the node and print its txID')
            break
        }
        'tronpool;tx;decode' {
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tronpool;tx;sign' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the signed JSON here instead of standard output')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Write the signed JSON here instead of standard output')
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tronpool;tx;broadcast' {
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tronpool;devnet' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Address to listen on')
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port to listen on (0 picks a free one)')
            [CompletionResult]::new('--block-time', '--block-time', [CompletionResultType]::ParameterName, 'Seconds without transactions before an empty block is produced (0: never). Every transaction is sealed into its own block at once either way')
            [CompletionResult]::new('--accounts', '--accounts', [CompletionResultType]::ParameterName, 'How many funded dev accounts to create (at most 1000)')
            [CompletionResult]::new('--state', '--state', [CompletionResultType]::ParameterName, 'Load the chain from FILE if it exists; save it there on exit')
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tronpool;generate' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Folder to write completions/ and man/ into')
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Network: devnet, nile, shasta, mainnet, or one defined in the config file')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'TRON node URL, overriding the network''s')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of the default one')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'File holding the private key to sign with (64 hex digits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to every confirmation (needed to spend without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v, -vv, -vvv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never color the output (NO_COLOR is honoured too)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
