/** Where data and jobs live: the embedded folder or PostgreSQL, in-process jobs or Redis, and the workers. */
import { flag, integer, text, url } from '../setting-kinds';

export const STORAGE = {
  title: 'Storage and jobs',
  intro:
    'With neither DATABASE_URL nor REDIS_URL set, the plugin runs embedded: PGlite under DATA_DIR and jobs in the process. Production needs PostgreSQL; Redis lets jobs run in separate worker processes.',
  settings: {
    DATA_DIR: text({ default: './.data', standaloneOnly: true, description: 'Embedded mode: PGlite database folder and generated secret key.' }),
    DATABASE_URL: url({
      schemes: ['postgres', 'postgresql'],
      secret: true,
      description: 'PostgreSQL connection string. Unset: embedded PGlite under DATA_DIR.',
    }),
    DATABASE_POOL_MAX: integer({ default: '10', minimum: 1, maximum: 1000, description: 'Maximum PostgreSQL connections per process.' }),
    REDIS_URL: url({ schemes: ['redis', 'rediss'], secret: true, description: 'Redis connection string. Unset: jobs run in-process.' }),
    REDIS_CLUSTER: flag({
      description:
        'REDIS_URL names one node of a Redis Cluster (a seed; the others are discovered from it; its credentials and TLS apply to every node). QUEUE_PREFIX must then be a hash tag ({…}). Default: false.',
    }),
    QUEUE_PREFIX: text({ default: '{hiring-integrations}', description: 'BullMQ key prefix; the braces are a Redis Cluster hash tag.' }),
    WORKER_CONCURRENCY: integer({ minimum: 1, maximum: 1000, description: "Overrides every queue's default concurrency from the manifest." }),
    WORKER_HTTP_PORT: integer({
      default: '3001',
      minimum: 0,
      maximum: 65535,
      standaloneOnly: true,
      description: "Port of the worker role's GET /healthz, /readyz and /metrics; 0 turns it off.",
    }),
    JOB_LOCK_DURATION_MS: integer({
      default: '30000',
      minimum: 100,
      maximum: 3_600_000,
      description: 'BullMQ job lock: a worker that stops renewing it for this long (crashed, killed) loses the job to another worker.',
    }),
    CREDENTIAL_DOCUMENTS_DIR: text({
      description:
        'Folder of the local-disk blob store holding uploaded credential documents, each encrypted with AES-256-GCM under a key derived from SECRET_KEY. Default: DATA_DIR/credential-documents. Every process (web, worker) must see the same folder.',
    }),
    CREDENTIAL_DOCUMENT_MAX_BYTES: integer({
      default: '10485760',
      minimum: 1024,
      maximum: 50 * 1024 * 1024,
      description: 'Largest credential document accepted for review (PDF, PNG or JPEG), in bytes; larger answers 413.',
    }),
    JOB_STALLED_INTERVAL_MS: integer({
      default: '30000',
      minimum: 100,
      maximum: 3_600_000,
      description: 'How often each worker looks for jobs whose lock expired (stalled) and puts them back in the queue.',
    }),
  },
} as const;
