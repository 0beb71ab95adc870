/** Importing this registers every built-in `--authorization-mode` (each mode registers itself on import). */
import './rbac/index.ts';
import './node/index.ts';
import './abac/index.ts';
import './webhook/index.ts';
