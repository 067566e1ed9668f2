// Times snarkjs's Groth16 prover on one witness: `node snarkjs_prove.js ZKEY WTNS RUNS`.
// Prints one JSON line with the median, min and max in milliseconds over RUNS proofs (after
// two warm-up proofs). Each proof reads the zkey and the witness from their files, as
// `snarkjs groth16 prove` and `fullProve` do; the witness is given, so the figure leaves out
// fullProve's witness calculation and is the prover alone.
const snarkjs = require('snarkjs');

async function main() {
  const [zkey, wtns, runsArg] = process.argv.slice(2);
  const runs = Number(runsArg || 9);
  for (let i = 0; i < 2; i++) await snarkjs.groth16.prove(zkey, wtns);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await snarkjs.groth16.prove(zkey, wtns);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({
    bench: 'snarkjs/groth16.prove',
    median_ms: times[Math.floor(runs / 2)],
    min_ms: times[0],
    max_ms: times[runs - 1],
    runs,
  }));
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
