/**
 * Loads every package's descriptions: one file per protobuf package, named after it (`docs/<package>.ts`), each
 * calling defineDocs. Add a package's file here when it is written.
 */
import './meta.ts';
import './util.ts';
import './runtime.ts';
import './core.v1.ts';
export { typeDoc, fieldDoc, documentedPackages, packageDocs } from './define.ts';
