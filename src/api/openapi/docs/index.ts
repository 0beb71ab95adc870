/** Loads every package's descriptions (each file calls defineDocs once). */
import './apps.v1.ts';
import './batch.v1.ts';
export { typeDoc, fieldDoc, documentedPackages } from './define.ts';
