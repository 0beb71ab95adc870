/** Server-side apply and managedFields upkeep (structured-merge-diff semantics over the catalog's schemas). */
export { apply, LAST_APPLIED_ANNOTATION, type ApplyOptions, type ApplyResult } from './apply.ts';
export { updateManagedFields, withManagedFields, type UpdateManagedFieldsOptions, type ManagedFieldsResult } from './update.ts';
export { ConflictError, printManager, type Conflict } from './conflict.ts';
export { decodeManagedFields, encodeManagedFields, isResetManagedFields, managerIdentifier, formatTime, type Managers, type ManagerState } from './managers.ts';
export { compareObjects, type Comparison } from './compare.ts';
export { mergeObjects, MergeError } from './merge.ts';
export { removeItems, normalizeTyped } from './remove.ts';
export { resetFields } from './reset-fields.ts';
export { managerOrUserAgent, fieldManagerProblems } from './manager-name.ts';
export { validateApplied, typedPatchError } from './validate.ts';
export { toScale, toParent, SCALE_API_VERSION, type ScaleMapping } from './scale.ts';
