/** The sandbox provider's seeded candidates: enough variety to see every import rule at work. */
import type { ProviderProfile } from '../../profiles/domain/provider-profile';

export type SandboxCandidate = Omit<ProviderProfile, 'profile_url'>;

export const SANDBOX_CANDIDATES: readonly SandboxCandidate[] = [
  {
    id: 'usr_sbx7Ada2Lovelace',
    name: 'Ada Lovelace',
    email: 'ada.lovelace@sandbox.example',
    email_verified: true,
    headline: 'Staff Backend Engineer · distributed systems and data pipelines',
    skills: [
      { name: 'TypeScript', verified: true },
      { name: 'PostgreSQL', verified: true },
      { name: 'Kubernetes', verified: false },
      { name: 'Go', verified: true },
    ],
    credentials: [
      { title: 'AWS Certified Solutions Architect – Professional', issuer: 'Amazon Web Services', verified: true, issued_at: '2023-04-12' },
      { title: 'Certified Kubernetes Administrator', issuer: 'Cloud Native Computing Foundation', verified: false, issued_at: '2021-09-30' },
    ],
    positions: [
      { title: 'Staff Engineer', company: 'Northwind Logistics', start_date: '2021-03-01', end_date: null, verified: true },
      { title: 'Senior Engineer', company: 'Contoso Ltd', start_date: '2016-06-01', end_date: '2021-02-28', verified: false },
      // Overlaps the Contoso years: counted once.
      { title: 'Open-source Maintainer', company: 'Analytical Engines Foundation', start_date: '2019-01-01', end_date: '2022-06-30' },
    ],
  },
  {
    id: 'usr_sbx4Grace9Hopper',
    name: 'Grace Hopper',
    // Not verified: the widget does not prefill it.
    email: 'grace.hopper@sandbox.example',
    email_verified: false,
    headline: 'Engineering Manager · compilers and developer tooling',
    skills: [
      { name: 'Compilers', verified: true },
      { name: 'COBOL', verified: true },
      { name: 'People management', verified: false },
    ],
    credentials: [{ title: 'Certified ScrumMaster', issuer: 'Scrum Alliance', verified: true, issued_at: '2019-11-05' }],
    positions: [
      { title: 'Engineering Manager', company: 'Fabrikam', start_date: '2020-01-15', end_date: null },
      { title: 'Principal Engineer', company: 'Fabrikam', start_date: '2014-05-01', end_date: '2020-01-14' },
      { title: 'Visiting Lecturer', company: 'Harbor University', start_date: '2018-09-01', end_date: '2019-06-30' },
    ],
  },
  {
    id: 'usr_sbx2Alan5Turing',
    name: 'Alan Turing',
    headline: 'Machine learning engineer',
    skills: [
      { name: 'Python', verified: true },
      { name: 'PyTorch', verified: false },
      { name: 'Statistics', verified: true },
    ],
    credentials: [
      { title: 'TensorFlow Developer Certificate', issuer: 'Google', verified: false, issued_at: '2022-02-01' },
      { title: 'MSc Mathematics', issuer: 'University of Manchester', verified: true, issued_at: '2017-07-15' },
    ],
    positions: [
      { title: 'Machine Learning Engineer', company: 'Tailspin Toys', start_date: '2022-08-01', end_date: null },
      { title: 'Data Scientist', company: 'Woodgrove Bank', start_date: '2017-09-01', end_date: '2022-07-31' },
    ],
  },
  {
    id: 'usr_sbx9Katherine3Johnson',
    name: 'Katherine Johnson',
    headline: 'Registered nurse · intensive care',
    skills: [
      { name: 'Critical care', verified: true },
      { name: 'Patient assessment', verified: true },
      { name: 'Spanish', verified: false },
    ],
    credentials: [
      { title: 'Registered Nurse License', issuer: 'State Board of Nursing', verified: true, issued_at: '2015-06-20' },
      { title: 'Basic Life Support', issuer: 'American Heart Association', verified: true, issued_at: '2024-01-10' },
    ],
    positions: [
      { title: 'ICU Nurse', company: 'Mercy General Hospital', start_date: '2018-02-01', end_date: null },
      { title: 'Staff Nurse', company: 'Lakeside Clinic', start_date: '2015-07-01', end_date: '2018-03-31' },
      { title: 'Per-diem Nurse', company: 'Travel Nurse Co', start_date: '2017-01-01', end_date: '2019-12-31' },
    ],
  },
];

export function findSandboxCandidate(id: string): SandboxCandidate | undefined {
  return SANDBOX_CANDIDATES.find((c) => c.id === id);
}
