// The ONNX Runtime peer of bench/models.sh: the CPU engine bundled with the npm package
// onnxruntime-node (bench/install-peers.sh installs it), on the same .onnx files and inputs as
// bench_models (openacl and OpenCV DNN).
//
//   node bench/ort_peer.js --dir MODELDIR --out RESULT.json --threads N [--names a,b]
//        [--seconds S] [--outputs DIR] [--modules DIR/node_modules]
//
// Per model: one session (intraOpNumThreads = N, the cores openacl computes on; one inter-op
// thread; graphOptimizationLevel "all"), warm-up runs, then session.run until `seconds` of
// measured time (at least 3 runs); per-run times and their median go to the result JSON, the
// last run's output to DIR/NAME.ort.bin. The timed call includes what Node.js and the binding
// add per call (wrapping the input, returning the output tensor); the "tiny" model (one Relu on
// 16 floats) measures that fixed cost.
'use strict';
const fs = require('fs');
const path = require('path');

function parseArgs(argv) {
  const args = { seconds: 5, threads: 0, names: null, outputs: null, modules: null };
  for (let i = 2; i + 1 < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in args) && !['dir', 'out'].includes(key)) throw new Error(`unknown flag ${argv[i]}`);
    args[key] = argv[i + 1];
  }
  if (!args.dir || !args.out || !(Number(args.threads) > 0)) {
    throw new Error('usage: ort_peer.js --dir MODELDIR --out RESULT.json --threads N ' +
                    '[--names a,b] [--seconds S] [--outputs DIR] [--modules DIR]');
  }
  args.seconds = Number(args.seconds);
  args.threads = Number(args.threads);
  args.outputs = args.outputs || args.dir;
  args.names = args.names ? new Set(args.names.split(',')) : null;
  return args;
}

function median(values) {
  const v = [...values].sort((a, b) => a - b);
  const n = v.length;
  return n === 0 ? 0 : n % 2 ? v[(n - 1) / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

async function measure(ort, entry, args) {
  const file = path.join(args.dir, entry.file);
  const raw = fs.readFileSync(path.join(args.dir, entry.input.file));
  const input = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(file, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: args.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
  const loadMs = Number(process.hrtime.bigint() - t0) * 1e-6;
  const feeds = { [entry.input.name]: new ort.Tensor('float32', input, entry.input.dims) };
  const tiny = entry.model === 'tiny';
  let out;
  for (let i = 0; i < (tiny ? 20 : 1); ++i) out = await session.run(feeds);
  const runs = [];
  let spent = 0;
  const maxRuns = tiny ? 2000 : 200;
  while (runs.length < maxRuns && (runs.length < 3 || spent < args.seconds)) {
    const start = process.hrtime.bigint();
    out = await session.run(feeds);
    const ms = Number(process.hrtime.bigint() - start) * 1e-6;
    runs.push(ms);
    spent += ms * 1e-3;
  }
  const data = out[entry.output.name].data;
  fs.writeFileSync(path.join(args.outputs, `${entry.name}.ort.bin`),
                   Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  await session.release();
  process.stderr.write(`ort_peer: ${entry.name.padEnd(16)} ${median(runs).toFixed(3)} ms\n`);
  return { load_ms: loadMs, runs_ms: runs, median_ms: median(runs) };
}

async function main() {
  const args = parseArgs(process.argv);
  const ort = require(args.modules ? path.resolve(args.modules, 'onnxruntime-node')
                                   : 'onnxruntime-node');
  const manifest = JSON.parse(fs.readFileSync(path.join(args.dir, 'manifest.json'), 'utf8'));
  const result = { ort_version: ort.env.versions.common, node_version: process.version,
                   threads: args.threads, models: {} };
  for (const entry of manifest) {
    if (args.names && !args.names.has(entry.name)) continue;
    try {
      result.models[entry.name] = { ort: await measure(ort, entry, args) };
    } catch (e) {
      result.models[entry.name] = { ort: { error: String(e.message || e) } };
    }
  }
  fs.writeFileSync(args.out, JSON.stringify(result, null, 1) + '\n');
}

main().catch((e) => {
  process.stderr.write(`ort_peer: ${e.message || e}\n`);
  process.exit(1);
});
