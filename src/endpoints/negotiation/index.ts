/**
 * Content negotiation for every endpoint: Accept parsing, JSON/YAML encoders with gzip, request-body
 * decoders, and the Table / PartialObjectMetadata conversions.
 *
 * Endpoints that are not resources answer with `respondObject(ctx, code, obj)` (JSON or YAML per Accept,
 * `?pretty`, gzip over 128 KiB); resource handlers use `negotiateResponse` once, then `respondResource` /
 * `respondList` / `respondItems`.
 */
export { negotiate, negotiateOrThrow, notAcceptable, parseAccept, SERVED_TYPES, STREAM_TYPES } from './accept.ts';
export type { ConversionTarget, Negotiated, NegotiateOptions, ServedType } from './accept.ts';
export { contentTypeOf, decodeObject, decodeOptionsBody, inputTypeOf, MAX_REQUEST_BODY_BYTES, parseBody, readBody } from './decode.ts';
export { acceptsGzip, cachedBody, cachedJson, encodeAs, encodeJson, encodeYaml, GZIP_THRESHOLD_BYTES, writeChunks } from './encode.ts';
export { JsonSyntaxError, scanJson } from '../../machinery/json/scan.ts';
export { partialObjectMetadata, partialObjectMetadataList } from './partial.ts';
export { negotiateResponse, respondItems, respondList, respondObject, respondResource, transformObject } from './render.ts';
export type { Representation, RenderScope } from './render.ts';
export { columnDefinitions, listToTable, objectToTable } from './table.ts';
export type { Table, TableColumnDefinition, TableOptions } from './table.ts';
