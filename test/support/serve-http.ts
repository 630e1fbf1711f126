/** One raw HTTP request to a test serve (node:http, no agent): status, headers, body as bytes, text and JSON. Shared by the serve tests. */
import { request } from 'node:http';

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  json: any;
}

export function http(server: { url: string }, method: string, path: string, o: { headers?: Record<string, string>; body?: string | Buffer; key?: string } = {}): Promise<Raw> {
  const u = new URL(server.url.replace(/\/v1$/, '') + path);
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  return new Promise((resolve, reject) => {
    const req = request(u, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        let json: any;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, body, text, json });
      });
    });
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}
