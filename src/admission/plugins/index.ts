/** Loads every plugin module (each registers its factories with src/admission/plugin-catalog.ts). */
import './always.ts';
import './namespace-lifecycle.ts';
import './builtin.ts';
import './pod-security/index.ts';
import './quota-and-limits.ts';
import './webhooks.ts';
import './validating-admission-policy.ts';
import './mutating-admission-policy.ts';
