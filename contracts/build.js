#!/usr/bin/env node
// Compiles contracts/src/*.sol with the pinned solc-js (package.json: "solc" exact) into
// contracts/artifacts/<ContractName>.json. Nothing is downloaded: solc-js ships the compiler
// (soljson.js) inside the npm package, and loadRemoteVersion is never used.
//
//   node build.js           compile and (re)write the artifacts; stale artifacts are removed
//   node build.js --check   compile in memory and compare with the committed artifacts byte for
//                           byte; list every drifted / missing / extra artifact and exit 1 if any
//
// Each source file is compiled in its own standard-JSON input, so its settings (below) are
// exactly the ones recorded in its artifacts. Only contracts *defined* in a file are emitted
// from that file's compilation; contracts with empty creation bytecode (interfaces, abstract
// contracts) get no artifact. Output is deterministic: two runs are byte-identical.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const ROOT = __dirname;
const SRC = path.join(ROOT, 'src');
const ARTIFACTS = path.join(ROOT, 'artifacts');

// Shanghai (PUSH0, parameter #76, on mainnet since 2023) and nothing newer: the Cancun opcodes
// (TLOAD/TSTORE/MCOPY) exist only where a network has voted parameter #83 in, so contracts
// built for Shanghai run on every current TRON network. solc 0.8.30 defaults to prague, so the
// target is always explicit. `tronpool deploy` reads it from the artifacts and checks the
// chain's switches before deploying.
const EVM_VERSION = 'shanghai';
const DEFAULT_OPTIMIZER = { enabled: true, runs: 200 };
// Per-file optimizer overrides, keyed by file name in src/.
const OPTIMIZER_OVERRIDES = {
  // A hot library called many times per deposit (20 tree levels): optimise for run time,
  // which keeps its round constants as PUSH32 immediates instead of code-copied tables.
  'PoseidonT3.sol': { enabled: true, runs: 1000000 },
  // Its four-input sibling, called once per batch; the same reasoning. Its 28 KB of code is
  // past Ethereum's EIP-170 limit (24,576 bytes), which TRON does not have: java-tron bounds a
  // deployment only by the transaction's size (500 KiB), its fee limit (200 energy a byte)
  // and CPU time (java-tron issue #3661).
  'PoseidonT5.sol': { enabled: true, runs: 1000000 },
  // The devnet's USDT stands in for TetherToken (solc 0.4): at runs 1 its transfer costs
  // within 1% of the real one's energy (see DevUSDT.sol), at the default 200 within 3%.
  'DevUSDT.sol': { enabled: true, runs: 1 },
};

function die(msg) {
  process.stderr.write(`build.js: error: ${msg}\n`);
  process.exit(1);
}

function loadSolc() {
  const want = require(path.join(ROOT, 'package.json')).dependencies.solc;
  let solc;
  let have;
  try {
    solc = require('solc');
    have = require('solc/package.json').version;
  } catch (e) {
    die(`solc-js is not installed (run 'npm ci' in ${ROOT}): ${e.message}`);
  }
  if (have !== want) {
    die(`installed solc ${have} but package.json pins ${want} (run 'npm ci' in ${ROOT})`);
  }
  return solc;
}

function settingsFor(file) {
  // Key order here is the key order in the artifacts.
  return {
    evmVersion: EVM_VERSION,
    optimizer: OPTIMIZER_OVERRIDES[file] || DEFAULT_OPTIMIZER,
    metadata: { bytecodeHash: 'none' },
  };
}

const OUTPUT_SELECTION = {
  '*': {
    '': ['ast'],
    '*': [
      'abi',
      'evm.bytecode.object',
      'evm.bytecode.linkReferences',
      'evm.deployedBytecode.object',
      'evm.deployedBytecode.immutableReferences',
    ],
  },
};

// The names of every variable declared in the compiled sources, by AST id: solc keys a
// contract's immutable references by the id of the variable's declaration.
function declarationNames(sources) {
  const names = new Map();
  const walk = (node) => {
    if (Array.isArray(node)) {
      node.forEach(walk);
    } else if (node && typeof node === 'object') {
      if (node.nodeType === 'VariableDeclaration' && typeof node.id === 'number') {
        names.set(node.id, node.name);
      }
      Object.values(node).forEach(walk);
    }
  };
  for (const unit of Object.values(sources || {})) walk(unit.ast);
  return names;
}

// Where the runtime code holds each immutable, by variable name: `{name: [[start, length],
// ...]}`, sorted by name. The runtime code in the artifact has zeros there; a deployed
// contract has the values its constructor set. Clients fill these in to compare a deployed
// contract's code with the artifact, and read the values (a pool's verifier, token and
// denomination; the verifier's key) straight from the code.
function immutables(references, names, where) {
  const out = {};
  for (const [id, ranges] of Object.entries(references || {})) {
    const name = names.get(Number(id));
    if (name === undefined) die(`${where}: immutable with AST id ${id} has no declaration`);
    if (out[name] !== undefined) die(`${where}: two immutables named ${name}`);
    out[name] = ranges.map((r) => [r.start, r.length]).sort((a, b) => a[0] - b[0]);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function sha256Hex(buf) {
  return crypto.createHash('sha256').update(buf).digest('hex');
}

// Import callback: source unit names are 'src/<File>.sol'; an import resolves inside src/ only.
function findImports(unitName) {
  const full = path.resolve(ROOT, unitName);
  if (!full.startsWith(SRC + path.sep)) {
    return { error: `import outside contracts/src is not allowed: ${unitName}` };
  }
  try {
    return { contents: fs.readFileSync(full, 'utf8') };
  } catch (e) {
    return { error: `cannot read ${unitName}: ${e.message}` };
  }
}

// Compiles every src/*.sol; returns a sorted array of [fileName, content] artifacts.
function compileAll(solc) {
  const files = fs.existsSync(SRC)
    ? fs.readdirSync(SRC).filter((f) => f.endsWith('.sol')).sort()
    : [];
  const version = solc.version();
  const artifacts = new Map();
  const failures = [];

  for (const file of files) {
    const sourceName = `src/${file}`;
    const source = fs.readFileSync(path.join(SRC, file));
    const settings = settingsFor(file);
    const input = {
      language: 'Solidity',
      sources: { [sourceName]: { content: source.toString('utf8') } },
      settings: { ...settings, outputSelection: OUTPUT_SELECTION },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));

    let failed = false;
    for (const d of output.errors || []) {
      const text = (d.formattedMessage || d.message).trimEnd();
      if (d.severity === 'error') failed = true;
      process.stderr.write(`${text}\n`); // errors, warnings and infos alike go to stderr
    }
    if (failed) {
      failures.push(file);
      continue;
    }

    const names = declarationNames(output.sources);
    const defined = (output.contracts || {})[sourceName] || {};
    for (const name of Object.keys(defined).sort()) {
      const c = defined[name];
      const bytecode = c.evm.bytecode.object;
      if (bytecode === '') continue; // interface or abstract contract: nothing to deploy
      if (Object.keys(c.evm.bytecode.linkReferences || {}).length > 0) {
        failures.push(file);
        process.stderr.write(
          `${sourceName}:${name}: needs library linking, which the artifacts do not support; ` +
            'make the library functions internal or call the library through an interface\n',
        );
        continue;
      }
      if (artifacts.has(name)) {
        failures.push(file);
        process.stderr.write(`${sourceName}:${name}: contract name already defined in another file\n`);
        continue;
      }
      const artifact = {
        contractName: name,
        sourceName,
        compiler: { version, settings },
        abi: c.abi,
        bytecode: `0x${bytecode}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        immutables: immutables(c.evm.deployedBytecode.immutableReferences, names, `${sourceName}:${name}`),
        bytecodeSha256: sha256Hex(Buffer.from(bytecode, 'hex')),
        sourceSha256: sha256Hex(source),
      };
      artifacts.set(name, `${JSON.stringify(artifact, null, 2)}\n`);
    }
  }

  if (failures.length > 0) {
    die(`compilation failed: ${[...new Set(failures)].join(', ')}`);
  }
  return [...artifacts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, text]) => [`${name}.json`, text]);
}

function existingArtifacts() {
  if (!fs.existsSync(ARTIFACTS)) return [];
  return fs.readdirSync(ARTIFACTS).filter((f) => f.endsWith('.json')).sort();
}

function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const unknown = args.filter((a) => a !== '--check');
  if (unknown.length > 0) die(`unknown argument(s): ${unknown.join(' ')} (usage: node build.js [--check])`);

  const solc = loadSolc();
  const built = compileAll(solc);
  const builtNames = new Set(built.map(([f]) => f));
  const extra = existingArtifacts().filter((f) => !builtNames.has(f));

  if (check) {
    const problems = [];
    for (const [file, text] of built) {
      const p = path.join(ARTIFACTS, file);
      if (!fs.existsSync(p)) problems.push(`missing: artifacts/${file}`);
      else if (fs.readFileSync(p, 'utf8') !== text) problems.push(`drifted: artifacts/${file}`);
    }
    for (const file of extra) problems.push(`extra:   artifacts/${file}`);
    if (problems.length > 0) {
      for (const p of problems) process.stderr.write(`build.js: ${p}\n`);
      die(`${problems.length} artifact(s) out of date; run 'node contracts/build.js' and commit contracts/artifacts`);
    }
    process.stdout.write(`build.js: ${built.length} artifact(s) up to date (solc ${solc.version()})\n`);
    return;
  }

  fs.mkdirSync(ARTIFACTS, { recursive: true });
  let written = 0;
  for (const [file, text] of built) {
    const p = path.join(ARTIFACTS, file);
    if (fs.existsSync(p) && fs.readFileSync(p, 'utf8') === text) continue;
    fs.writeFileSync(p, text);
    written += 1;
  }
  for (const file of extra) fs.unlinkSync(path.join(ARTIFACTS, file));
  process.stdout.write(
    `build.js: ${built.length} artifact(s), ${written} written, ${extra.length} stale removed (solc ${solc.version()})\n`,
  );
}

main();
