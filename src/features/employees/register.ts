/**
 * Employees' roles and their credential requirements (background_checks.compliance_tracking):
 * roles with requirements, employees with roles, documents they upload through a signed
 * link, the reviewer's decision, and their standing; what they hold is tracked by compliance.
 */
import { instanceCachingFactory } from 'tsyringe';
import type { PluginModule } from '../../platform/composition/plugin-module';
import { CLOCK, type Clock } from '../../kernel/clock';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { buildRouter } from '../../platform/http/route';
import { withDocumentUploadBody } from '../credential-documents/http/document-upload-policy';
import { deriveKey } from '../../platform/security/key-derivation';
import { MESSAGE_LINK_KEY, SignedLinks } from '../messages/domain/signed-links';
import { ENTITLEMENTS, type Entitlements } from '../licensing/domain/entitlements';
import { NOTIFICATION_CONNECTOR, type NotificationConnector } from '../hooks/domain/connectors';
import { BLOB_STORE, type BlobStore } from '../credential-documents/domain/blob-store';
import { KnexReviewedDocuments } from '../credential-documents/storage/knex-reviewed-documents';
import { ComplianceService } from '../compliance/domain/compliance-service';
import { HOLDER_LANGUAGES } from '../compliance/domain/holder-language';
import { candidateStore, noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { EMPLOYEE_REPOSITORY, type EmployeeRepository } from './domain/employee';
import { EmployeeHolderLanguages } from './domain/employee-holder-languages';
import { EMPLOYEE_DOCUMENT_REPOSITORY, type EmployeeSubject } from './domain/employee-document';
import { EmployeeService } from './domain/employee-service';
import { ROLE_REPOSITORY } from './domain/role';
import { ROLE_CREDENTIAL_CHECKER, type RoleCredentialChecker } from './domain/role-credential-check';
import { employeeRoutes } from './http/employees-router';
import { employeeUploadRoutes, LINK_UPLOAD_OPERATION } from './http/employee-uploads-router';
import { roleRoutes } from './http/roles-router';
import { employeeDocumentsData, employeesData } from './storage/employees-candidate-data';
import { KnexEmployees } from './storage/knex-employees';
import { KnexRoles } from './storage/knex-roles';

const UPLOAD_MAX_BYTES = Symbol('EmployeeDocumentMaxBytes');

export const employeesModule: PluginModule = {
  name: 'employees',
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    if (!container.isRegistered(MESSAGE_LINK_KEY)) container.register(MESSAGE_LINK_KEY, { useValue: deriveKey(config.secretKey, 'message-links') });
    container.register(ROLE_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexRoles(db)) });
    container.register(EMPLOYEE_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexEmployees(db)) });
    // Compliance's expiry reminders to employees read the employee's language.
    container.register(HOLDER_LANGUAGES, {
      useFactory: instanceCachingFactory((c) => new EmployeeHolderLanguages(c.resolve<EmployeeRepository>(EMPLOYEE_REPOSITORY))),
    });
    container.register(EMPLOYEE_DOCUMENT_REPOSITORY, {
      useFactory: instanceCachingFactory(
        () => new KnexReviewedDocuments<EmployeeSubject>(db, 'hi_employee_documents', { employeeId: 'employee_id', roleId: 'role_id' }),
      ),
    });
    container.register(UPLOAD_MAX_BYTES, { useValue: config.credentialDocuments.maxBytes });
    // Documents first: an employee's erasure removes their files before the rows that name them.
    registerCandidateData(container, candidateStore(employeeDocumentsData(db, container.resolve<BlobStore>(BLOB_STORE))));
    registerCandidateData(container, candidateStore(employeesData(db)));
    registerCandidateData(container, noCandidateData('hi_roles', "Organizations' roles and their credential requirements"));
    container.register(EmployeeService, {
      useFactory: instanceCachingFactory(
        (c) =>
          new EmployeeService(
            c.resolve(ROLE_REPOSITORY),
            c.resolve(EMPLOYEE_REPOSITORY),
            c.resolve(EMPLOYEE_DOCUMENT_REPOSITORY),
            c.resolve<BlobStore>(BLOB_STORE),
            () => c.resolve(ComplianceService),
            c.resolve<Entitlements>(ENTITLEMENTS),
            new SignedLinks(c.resolve<Buffer>(MESSAGE_LINK_KEY)),
            () => c.resolve<NotificationConnector>(NOTIFICATION_CONNECTOR),
            { baseUrl: config.baseUrl, maxBytes: config.credentialDocuments.maxBytes },
            () => c.resolve<Clock>(CLOCK).now(),
            () => c.resolve<RoleCredentialChecker>(ROLE_CREDENTIAL_CHECKER),
          ),
      ),
    });
  },
  routers: [
    { name: 'roles', create: (container, kit) => kit.build('roles', roleRoutes(container.resolve(EmployeeService))) },
    { name: 'employees', create: (container, kit) => kit.build('employees', employeeRoutes(container.resolve(EmployeeService))) },
    {
      name: 'employee-uploads',
      create: (container, kit) => {
        const maxBytes = container.resolve<number>(UPLOAD_MAX_BYTES);
        return buildRouter(
          'employee-uploads',
          employeeUploadRoutes(container.resolve(EmployeeService), maxBytes),
          withDocumentUploadBody(kit.policy, LINK_UPLOAD_OPERATION, maxBytes),
        );
      },
    },
  ],
};
