/** Loads every plugin module (each registers its factories with src/admission/plugin-catalog.ts). */
import './always.ts';
import './namespace-lifecycle.ts';
import './validating-admission-policy.ts';
import './mutating-admission-policy.ts';
