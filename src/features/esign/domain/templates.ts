/**
 * Document templates per organization, one list per kind (offer letters, agreements). The
 * newest of a kind is the default for envelopes that name none; an organization without any
 * gets the built-in one. Every save is checked (template-language.ts): a template that could
 * not be filled is refused with 400, not discovered when a candidate is waiting.
 */
import { notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import type { EnvelopeKind } from './envelope';
import { checkTemplate } from './template-language';

export interface DocumentTemplate {
  id: string;
  organizationId: string;
  kind: EnvelopeKind;
  name: string;
  /** The document's title (may hold placeholders too). */
  title: string;
  body: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface TemplateRepository {
  list(organizationId: string): Promise<DocumentTemplate[]>;
  get(organizationId: string, id: string): Promise<DocumentTemplate | undefined>;
  newest(organizationId: string, kind: EnvelopeKind): Promise<DocumentTemplate | undefined>;
  save(template: DocumentTemplate): Promise<void>;
  remove(organizationId: string, id: string): Promise<boolean>;
}

export const TEMPLATE_REPOSITORY = Symbol('TemplateRepository');

/**
 * What an organization that wrote no template of the kind sends. They use only the values
 * every envelope has, so a bare `offer.created` (no salary, no start date) still makes a
 * letter; an organization that wants the terms in it writes its own with `{{offer.salary}}` & co.
 */
export const BUILT_IN_TEMPLATES: Record<EnvelopeKind, Pick<DocumentTemplate, 'name' | 'title' | 'body'>> = {
  offer: {
    name: 'Offer letter (built in)',
    title: '{{document.title}}',
    body:
      '# {{document.title}}\n\nDear {{candidate.name}},\n\n{{organization.name}} is pleased to make you the offer of employment it has discussed with you, ' +
      'on the terms it has given you. This letter is dated {{today}}.\n\nPlease review it and sign below to accept it, or decline it.\n\nSincerely,\n{{organization.name}}',
  },
  agreement: {
    name: 'Agreement (built in)',
    title: '{{document.title}}',
    body:
      '# {{document.title}}\n\nThis agreement is made on {{today}} between {{organization.name}} and {{candidate.name}} ({{candidate.email}}).\n\n' +
      'By signing below, {{candidate.name}} accepts the terms of this agreement as provided by {{organization.name}}.',
  },
};

export interface TemplateInput {
  kind: EnvelopeKind;
  name: string;
  title: string;
  body: string;
}

export class DocumentTemplates {
  constructor(
    private readonly repository: TemplateRepository,
    private readonly now: () => Date,
  ) {}

  list(organizationId: string): Promise<DocumentTemplate[]> {
    return this.repository.list(organizationId);
  }

  async get(organizationId: string, id: string): Promise<DocumentTemplate> {
    const template = await this.repository.get(organizationId, id);
    if (!template) throw notFound('template', id);
    return template;
  }

  async create(organizationId: string, input: TemplateInput): Promise<DocumentTemplate> {
    checkTemplate(input.title, 'title');
    checkTemplate(input.body, 'body');
    const now = this.now();
    const template: DocumentTemplate = { id: newId('etpl'), organizationId, ...input, createdAt: now, updatedAt: now };
    await this.repository.save(template);
    return template;
  }

  async update(organizationId: string, id: string, changes: Partial<Omit<TemplateInput, 'kind'>>): Promise<DocumentTemplate> {
    const template = await this.get(organizationId, id);
    const next = { ...template, ...changes, updatedAt: this.now() };
    checkTemplate(next.title, 'title');
    checkTemplate(next.body, 'body');
    await this.repository.save(next);
    return next;
  }

  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.repository.remove(organizationId, id))) throw notFound('template', id);
  }

  /** The template an envelope is filled from: the one named, else the newest of the kind, else the built-in one. */
  async forEnvelope(organizationId: string, kind: EnvelopeKind, id?: string): Promise<Pick<DocumentTemplate, 'title' | 'body'> & { id: string | null }> {
    if (id) {
      const named = await this.get(organizationId, id);
      if (named.kind !== kind) throw notFound('template', id);
      return named;
    }
    const newest = await this.repository.newest(organizationId, kind);
    return newest ?? { id: null, ...BUILT_IN_TEMPLATES[kind] };
  }
}
