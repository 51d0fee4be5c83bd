/**
 * The job feed documents, pure: a listing's JobPosting carries the fields Google for Jobs
 * requires and recommends, remote jobs say TELECOMMUTE and where applicants may live, and
 * hostile text (markup, control characters) stays well-formed XML that Debian's xmllint
 * validates against schemas/job-feed.xsd.
 */
import { strict as assert } from 'node:assert';
import path from 'node:path';
import { xmlFeed, sitemap, jsonFeed } from '../../src/features/job-feeds/domain/feed-documents';
import { toJobPosting, VALID_FOR_DAYS } from '../../src/features/job-feeds/domain/job-posting';
import type { Listing } from '../../src/features/listings/domain/listing';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { xmllintErrors } from '../helpers/xmllint';

const NOW = new Date('2026-11-25T18:00:00Z');
const listing = (over: Partial<Listing> = {}): Listing => ({
  id: 'listing_abc',
  organizationId: 'org_1',
  title: 'Night nurse',
  status: 'open',
  questions: [],
  description: 'Night shifts.\n\nCare for <patients> & families.',
  location: 'Lyon',
  externalId: 'ats-7',
  createdAt: new Date('2026-11-20T09:30:00Z'),
  updatedAt: new Date('2026-11-21T10:00:00Z'),
  ...over,
});
const context = { organizationName: 'Acme Care', listingUrl: 'https://careers.acme.example/jobs/listing_abc', now: NOW };

describe('job feed documents', () => {
  it('maps a listing to a JobPosting with the required and recommended fields', () => {
    const posting = toJobPosting(listing(), context);
    assert.equal(posting['@context'], 'https://schema.org');
    assert.equal(posting['@type'], 'JobPosting');
    assert.equal(posting.title, 'Night nurse');
    assert.equal(posting.description, '<p>Night shifts.</p><p>Care for &lt;patients&gt; &amp; families.</p>');
    assert.equal(posting.datePosted, '2026-11-20');
    assert.deepEqual(posting.hiringOrganization, { '@type': 'Organization', name: 'Acme Care' });
    assert.deepEqual(posting.jobLocation, { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: 'Lyon' } });
    assert.equal(posting.jobLocationType, undefined);
    assert.equal(posting.validThrough, new Date(Date.UTC(2026, 10, 25 + VALID_FOR_DAYS)).toISOString());
    assert.deepEqual(posting.identifier, { '@type': 'PropertyValue', name: 'Acme Care', value: 'ats-7' });
    assert.equal(posting.directApply, true);
    assert.equal(posting.url, context.listingUrl);
    assert.equal(posting.employmentType, undefined, 'not known: left out rather than guessed');
  });

  it('says TELECOMMUTE and where applicants may live for a remote job', () => {
    const remote = toJobPosting(listing({ location: 'Remote - France' }), context);
    assert.equal(remote.jobLocationType, 'TELECOMMUTE');
    assert.deepEqual(remote.applicantLocationRequirements, { '@type': 'Country', name: 'France' });
    assert.equal(remote.jobLocation, undefined);
    assert.deepEqual(toJobPosting(listing({ location: 'Germany (remote)' }), context).applicantLocationRequirements, { '@type': 'Country', name: 'Germany' });
    const anywhere = toJobPosting(listing({ location: 'Remote' }), context);
    assert.equal(anywhere.jobLocationType, 'TELECOMMUTE');
    assert.equal(anywhere.applicantLocationRequirements, undefined);
    assert.equal(toJobPosting(listing({ description: null }), context).description, '<p>Night nurse</p>', 'the title when there is no description');
  });

  it('writes hostile text as well-formed XML that validates against the XSD', () => {
    const input = {
      organizationId: 'org_1',
      organizationName: 'Acme & "Sons" <Care>',
      listingUrlTemplate: 'https://careers.acme.example/{organization_id}/jobs/{listing_id}?src=feed&x=1',
      listings: [
        listing({ title: 'Nurse ]]> <script>alert(1)</script>\u0001\u000b', location: ' ' }),
        listing({ id: 'listing_b', externalId: null, description: null }),
      ],
      now: NOW,
      publisher: 'Hiring Integrations',
      feedUrl: 'https://plugin.example/v1/public/organizations/org_1/jobs.xml',
    };
    const xml = xmlFeed(input);
    assert.equal(xmllintErrors(xml, path.join(PACKAGE_ROOT, 'schemas/job-feed.xsd')), '');
    assert.match(xml, /<title>Nurse \]\]&gt; &lt;script&gt;alert\(1\)&lt;\/script&gt;<\/title>/);
    assert.match(xml, /<referencenumber>listing_b<\/referencenumber>/);
    assert.match(xml, /<date>Fri, 20 Nov 2026 09:30:00 GMT<\/date>/);
    assert.doesNotMatch(xml.split('<job>')[1]!, /<city>/, 'a blank location has no <city>');
    assert.match(xml, /<url>https:\/\/careers\.acme\.example\/org_1\/jobs\/listing_abc\?src=feed&amp;x=1<\/url>/);
    // Well-formed with no job too, and the sitemap is well-formed XML.
    assert.equal(xmllintErrors(xmlFeed({ ...input, listings: [] }), path.join(PACKAGE_ROOT, 'schemas/job-feed.xsd')), '');
    const map = sitemap(input);
    assert.equal(xmllintErrors(map), '');
    assert.match(map, /<lastmod>2026-11-21T10:00:00.000Z<\/lastmod>/);
    const json = jsonFeed(input);
    assert.equal(json.data.length, 2);
    assert.equal(json.data[1]!.reference_number, 'listing_b');
    assert.equal(json.data[0]!.location, null);
  });
});
