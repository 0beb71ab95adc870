/** The status of one anonymous `GET /readyz` on 127.0.0.1 (0 when nothing answers within a second). */
import https from 'node:https';

export function readyzStatus(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = https.get({ host: '127.0.0.1', port, path: '/readyz', rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(1000, () => req.destroy());
    req.on('error', () => resolve(0));
  });
}
