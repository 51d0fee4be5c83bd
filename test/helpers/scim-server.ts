/**
 * A real SCIM 2.0 service provider for the HRIS tests: scimmy (RFC 7643/7644 parsing,
 * filters, PATCH) behind scimmy-routers on Express, over an in-memory directory, on an
 * ephemeral port. Only a request with the right bearer token gets in. `userName` and
 * `externalId` are unique (409 uniqueness), as directories enforce them. `answerNext`
 * makes the next /Users request answer something else (garbage, an outage).
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import SCIMMYRouters, { SCIMMY } from 'scimmy-routers';

export interface ScimUser {
  id: string;
  externalId?: string;
  userName: string;
  active?: boolean;
  userType?: string;
  title?: string;
  displayName?: string;
  emails?: { value: string; type?: string; primary?: boolean }[];
  name?: { formatted?: string; givenName?: string; familyName?: string };
  [ENTERPRISE]?: { department?: string };
}
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

export interface TestScimServer {
  baseUrl: string;
  token: string;
  users: Map<string, ScimUser>;
  /** Every request's method and path, in order. */
  requests: { method: string; path: string }[];
  answerNext(status: number, body: string): void;
  close(): Promise<void>;
}

const strip = (value: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(value));

export async function startScimServer(token: string): Promise<TestScimServer> {
  const users = new Map<string, ScimUser>();
  const requests: { method: string; path: string }[] = [];
  let next: { status: number; body: string } | undefined;

  SCIMMY.Config.set({ patch: true, filter: true, documentationUri: 'https://scim.test.invalid/docs' });
  SCIMMY.Resources.declare(SCIMMY.Resources.User.extend(SCIMMY.Schemas.EnterpriseUser, false))
    .ingress((resource: { id?: string }, instance: unknown) => {
      const user = strip(instance) as unknown as ScimUser;
      for (const other of users.values()) {
        if (other.id === resource.id) continue;
        if (other.userName.toLowerCase() === user.userName.toLowerCase() || (user.externalId && other.externalId === user.externalId))
          throw new SCIMMY.Types.Error(409, 'uniqueness', 'userName or externalId already in use');
      }
      if (resource.id && !users.has(resource.id)) throw new SCIMMY.Types.Error(404, null as never, `Resource ${resource.id} not found`);
      const stored = { ...user, id: resource.id ?? randomUUID() };
      users.set(stored.id, stored);
      return stored as never;
    })
    .egress((resource: { id?: string; filter?: { match(values: unknown[]): unknown[] } }) => {
      if (resource.id) {
        const user = users.get(resource.id);
        if (!user) throw new SCIMMY.Types.Error(404, null as never, `Resource ${resource.id} not found`);
        return user as never;
      }
      const all = [...users.values()];
      return (resource.filter ? resource.filter.match(all) : all) as never;
    })
    .degress((resource: { id?: string }) => {
      users.delete(resource.id ?? '');
    });

  const app = express();
  app.use((req, res, nextHandler) => {
    requests.push({ method: req.method, path: req.originalUrl.replace(/^\/scim\/v2/, '') });
    const injected = next;
    if (injected && req.path.startsWith('/scim/v2/Users')) {
      next = undefined;
      res.status(injected.status).type('application/scim+json').send(injected.body);
      return;
    }
    nextHandler();
  });
  app.use(
    '/scim/v2',
    new SCIMMYRouters({
      type: 'bearer',
      docUri: 'https://scim.test.invalid/auth',
      handler: (req) => {
        if (req.header('authorization') !== `Bearer ${token}`) throw new Error('Invalid bearer token');
        return 'provisioner';
      },
    }) as unknown as express.Router,
  );
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/scim/v2`,
    token,
    users,
    requests,
    answerNext(status, body) {
      next = { status, body };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
