/**
 * Summarizes a V8 CPU profile (`node --cpu-prof`, e.g. from `BENCH_PROFILE=<dir>` in bench/run.ts): the share of
 * samples by function, self time and inclusive time (a function counted once per sample however deep it
 * recurses), optionally only over the last N seconds before the process began to exit (the load window
 * rather than start-up).
 *   node --import tsx bench/profile-summary.ts <dir or .cpuprofile> [--top 40] [--last 10]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] }

export interface Share { name: string; share: number }

/** Milliseconds at the end of a profile that belong to shutting down, left out of a `--last` window. */
const EXIT_TAIL_US = 300_000;

export function summarize(p: Profile, lastSeconds = 0): { samples: number; self: Share[]; inclusive: Share[] } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode): string =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
  const times: number[] = [];
  let t = p.startTime;
  for (const d of p.timeDeltas) times.push((t += d));
  const end = (times[times.length - 1] ?? 0) - EXIT_TAIL_US;
  const counts = new Map<number, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    if (lastSeconds > 0 && (times[i]! < end - lastSeconds * 1e6 || times[i]! > end)) return;
    total++;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  });
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  for (const [id, c] of counts) {
    const leaf = byId.get(id)!;
    self.set(label(leaf), (self.get(label(leaf)) ?? 0) + c);
    const seen = new Set<string>();
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
      const k = label(byId.get(x)!);
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + c);
    }
  }
  const sorted = (m: Map<string, number>): Share[] => [...m].sort((a, b) => b[1] - a[1]).map(([name, c]) => ({ name, share: total ? c / total : 0 }));
  return { samples: total, self: sorted(self), inclusive: sorted(incl) };
}

function profileFile(arg: string): string {
  if (!statSync(arg).isDirectory()) return arg;
  const files = readdirSync(arg).filter((f) => f.endsWith('.cpuprofile')).sort();
  if (!files.length) throw new Error(`no .cpuprofile in ${arg}`);
  return path.join(arg, files[files.length - 1]!);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const opt = (name: string, dflt: number): number => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args.splice(i, 2)[1]) : dflt;
  };
  const top = opt('--top', 40);
  const last = opt('--last', 0);
  const file = profileFile(args[0] ?? '.');
  const s = summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, last);
  const show = (title: string, xs: Share[]): void => {
    console.log(`${title} (${s.samples} samples${last ? `, last ${last} s` : ''}, ${file})`);
    for (const x of xs.slice(0, top)) console.log(`${(x.share * 100).toFixed(1).padStart(5)}%  ${x.name}`);
  };
  show('self', s.self);
  show('inclusive', s.inclusive);
}
