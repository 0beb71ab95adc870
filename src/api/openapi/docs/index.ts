/** Loads every package's descriptions (each file calls defineDocs once). */
export { typeDoc, fieldDoc, documentedPackages } from './define.ts';
