// Runs dedot's RFC-0078 metadata digest (@dedot/merkleized-metadata 1.3.0)
// on the jobs of a JSON file and prints the results as JSON, one per job:
// {"hex": …} or {"error": message}. The jobs are the digest jobs of
// ../reference_scripts/btcore_digest.py: {"kind": "digest", "metadata": FILE,
// "spec_version", "spec_name", "base58_prefix", "decimals", "token_symbol"}.
// Run by test_metadata_digest.py with the node_modules `cargo xtask test`
// installs here (`npm ci`).
import { readFileSync } from 'node:fs';
import { MerkleizedMetadata } from '@dedot/merkleized-metadata';

const hex = (bytes) => Buffer.from(bytes).toString('hex');

function run(job) {
  try {
    const metadata = new Uint8Array(readFileSync(job.metadata));
    const merkleizer = new MerkleizedMetadata(metadata, {
      specVersion: job.spec_version,
      specName: job.spec_name,
      ss58Prefix: job.base58_prefix,
      decimals: job.decimals,
      tokenSymbol: job.token_symbol,
    });
    return { hex: hex(merkleizer.digest()) };
  } catch (e) {
    // every refusal is a result to compare
    return { error: String(e) };
  }
}

const jobs = JSON.parse(readFileSync(process.argv[2], 'utf8'));
console.log(JSON.stringify(jobs.map(run)));
