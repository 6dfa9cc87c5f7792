// Scores rows with an ONNX file in ONNX Runtime, for the tests of package
// interop/onnx:
//
//   node score.js MODEL.onnx FEATURES.csv
//
// FEATURES.csv has no header: one row of numbers per line (empty or NaN
// for a missing value), read into a float32 tensor X [N, F]. Prints one
// line per row: the probability output (as its float32 value, shortest
// form) and the label output, comma-separated; for a multi-class model
// (an output named probabilities, [N, K]), the K class probabilities and
// the label (the class index).
//
// onnxruntime-node is looked up in $AER_ONNXRUNTIME (a folder holding
// node_modules/onnxruntime-node), then beside this script
// (npm install --ignore-scripts --no-package-lock in this folder).
'use strict';
const fs = require('fs');
const path = require('path');

function loadRuntime() {
  const paths = [];
  if (process.env.AER_ONNXRUNTIME) paths.push(process.env.AER_ONNXRUNTIME);
  paths.push(__dirname);
  return require(require.resolve('onnxruntime-node', { paths }));
}

async function main() {
  const [modelPath, csvPath] = process.argv.slice(2);
  if (!modelPath || !csvPath) {
    console.error('usage: node score.js MODEL.onnx FEATURES.csv');
    process.exit(2);
  }
  const ort = loadRuntime();
  const lines = fs.readFileSync(csvPath, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const n = lines.length;
  const f = n > 0 ? lines[0].split(',').length : 0;
  const x = new Float32Array(n * f);
  lines.forEach((line, i) => {
    const cells = line.split(',');
    if (cells.length !== f) throw new Error(`${csvPath}:${i + 1}: ${cells.length} cells, want ${f}`);
    cells.forEach((c, j) => {
      x[i * f + j] = c.trim() === '' ? NaN : Number(c);
    });
  });
  const session = await ort.InferenceSession.create(path.resolve(modelPath));
  const out = await session.run({ X: new ort.Tensor('float32', x, [n, f]) });
  const label = out.label.data;
  const rows = [];
  if (out.probabilities) {
    // A multi-class model: K probabilities, then the label (the class
    // index).
    const p = out.probabilities.data;
    const k = out.probabilities.dims[1];
    for (let i = 0; i < n; i++) rows.push([...p.slice(i * k, (i + 1) * k), label[i]].join(','));
  } else {
    const p = out.probability.data;
    for (let i = 0; i < n; i++) rows.push(`${p[i]},${label[i]}`);
  }
  process.stdout.write(rows.join('\n') + '\n');
}

main().catch((e) => {
  console.error(e && e.message ? e.message : e);
  process.exit(1);
});
