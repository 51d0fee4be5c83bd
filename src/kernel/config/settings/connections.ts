/** Deployment defaults of the integration actions' connections: used by every organization without its own. */
import { text, url } from '../setting-kinds';
import { hostList } from '../value-parsers';

export const CONNECTIONS = {
  title: 'Connection defaults',
  intro:
    "Connections an operator provides for every organization (e.g. the ATS's own mail relay). An organization's own connection wins; see docs/connections.md.",
  settings: {
    SMTP_URL: url({
      schemes: ['smtp', 'smtps'],
      secret: true,
      description:
        "Deployment default email connection for every organization without its own (e.g. the ATS's relay): smtp://user:pass@host:587 (STARTTLS required), smtps://…:465 (TLS), ?security=none for a local relay. Unset: none.",
    }),
    SMTP_FROM: text({
      description: 'Sender address of the SMTP_URL connection (required with it), e.g. "Hiring <jobs@example.com>" or jobs@example.com.',
    }),
    CONNECTOR_ALLOWED_INTERNAL_HOSTS: text({
      parse: hostList,
      description:
        "Comma-separated host names (or IP addresses) organizations' connections may reach although they resolve to loopback, private or link-local addresses (a mail relay or HR system on the ATS's private network). Unset: connections reach public addresses only; the deployment defaults above are the operator's own and are never checked.",
    }),
  },
} as const;
