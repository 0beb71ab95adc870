/**
 * Loads every package's descriptions: one file per protobuf package, named after it (`docs/<package>.ts`), each
 * calling defineDocs. Add a package's file here when it is written.
 */
export { typeDoc, fieldDoc, documentedPackages, packageDocs } from './define.ts';
