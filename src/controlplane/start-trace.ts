/**
 * A wall-clock trace of the start path: with KEELSON_TRACE_START=1 every phase of `startServer` prints one
 * line to stderr with the milliseconds since the process started (performance.now() counts from process
 * start, so Node's own bootstrap and the bundle's load are included). Off by default: one env read per start.
 */
const enabled = process.env.KEELSON_TRACE_START === '1';
let last = 0;

export function tracePhase(phase: string): void {
  if (!enabled) return;
  const now = performance.now();
  process.stderr.write(`start-trace ${now.toFixed(1)} ms (+${(now - last).toFixed(1)}) ${phase}\n`);
  last = now;
}
