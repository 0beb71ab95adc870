/**
 * A CRD conversion webhook for tests: HTTPS on 127.0.0.1 (random port, own CA, via webhook-server.ts) that
 * answers `ConversionReview`s by applying `convert(object, desiredAPIVersion)` to each object, as a real
 * webhook would. `clientConfig` is what goes into `spec.conversion.webhook.clientConfig` (url + caBundle).
 *
 * ```ts
 * const wh = await startConversionWebhook({ convert: (o, to) => ({ ...o, apiVersion: to }) });
 * crd.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: wh.clientConfig, conversionReviewVersions: ['v1'] } };
 * ...
 * await wh.stop();
 * ```
 */
import { startWebhookServer, type WebhookReply, type WebhookRequest, type WebhookServer } from './webhook-server.ts';

type J = Record<string, any>;

export interface ConversionWebhookOptions {
  /** Converts one object; throw to make the webhook answer `result.status: Failure` with the error's message. */
  convert(obj: J, desiredAPIVersion: string): J;
  /** Replace the whole reply (malformed-response tests). */
  override?(req: WebhookRequest): WebhookReply | undefined;
  /** URL path the webhook serves (default `/convert`). */
  readonly path?: string;
}

export interface ConversionWebhook {
  readonly url: string;
  readonly clientConfig: { url: string; caBundle: string };
  readonly server: WebhookServer;
  /** Every ConversionReview request received. */
  readonly reviews: J[];
  stop(): Promise<void>;
}

export async function startConversionWebhook(o: ConversionWebhookOptions): Promise<ConversionWebhook> {
  const reviews: J[] = [];
  const server = await startWebhookServer({
    handler(req) {
      const custom = o.override?.(req);
      if (custom) return custom;
      const review = (req.body ?? {}) as J;
      reviews.push(review);
      const request = (review.request ?? {}) as J;
      const response: J = { uid: request.uid };
      try {
        response.convertedObjects = ((request.objects ?? []) as J[]).map((x) => o.convert(structuredClone(x), String(request.desiredAPIVersion)));
        response.result = { status: 'Success' };
      } catch (e) {
        response.result = { status: 'Failure', message: e instanceof Error ? e.message : String(e) };
      }
      return { body: { apiVersion: review.apiVersion ?? 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response } };
    },
  });
  const url = `${server.url.replace(/\/$/, '')}${o.path ?? '/convert'}`;
  return {
    url,
    clientConfig: { url, caBundle: Buffer.from(server.ca.certPem).toString('base64') },
    server,
    reviews,
    stop: () => server.stop(),
  };
}
