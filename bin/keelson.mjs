#!/usr/bin/env node
// Launcher: registers tsx so the TypeScript sources run as they are, then runs the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
process.exitCode = code;
// Everything was closed by stop(); if a stray handle still holds the loop, do not hang the shutdown.
setTimeout(() => process.exit(code), 2000).unref();
