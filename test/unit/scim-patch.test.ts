/**
 * SCIM PATCH (RFC 7644 §3.5.2) on a document, without HTTP or storage (scim/patch.ts): what
 * Entra ID and Okta send (capitalised ops, "True" strings, dotted and URN-qualified no-path
 * keys, remove with a value list, a value filter matching nothing), primary kept single, the
 * original never modified, and each refusal's scimType.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, normaliseOperations, parsePatchPath } from '../../src/scim/patch.ts';
import { ENTERPRISE_USER, USER_SCHEMA } from '../../src/scim/schema-catalog.ts';
import type { JsonObject } from '../../src/scim/coerce.ts';

const user = (): JsonObject => ({
  userName: 'bjensen',
  active: true,
  name: { givenName: 'Barbara', familyName: 'Jensen' },
  emails: [
    { value: 'b@work.example', type: 'work', primary: true },
    { value: 'b@home.example', type: 'home' },
  ],
});

const patch = (doc: JsonObject, operations: unknown[]) => applyPatch(USER_SCHEMA, doc, normaliseOperations(operations));
const scimType = (scimType: string) => ({ status: 400, extensions: { scimType } });

describe('SCIM PATCH on a document', () => {
  it('Entra: capitalised op names and "False" strings', () => {
    const doc = user();
    const result = patch(doc, [{ op: 'Replace', path: 'active', value: 'False' }]);
    assert.equal(result.active, false);
    assert.equal(doc.active, true, 'the original is left alone');
  });

  it('Okta: a no-path replace with dotted and URN-qualified keys', () => {
    const result = patch(user(), [
      { op: 'replace', value: { 'name.givenName': 'Babs', [`${ENTERPRISE_USER}:department`]: 'Tour' } },
    ]);
    assert.deepEqual(result.name, { givenName: 'Babs', familyName: 'Jensen' });
    assert.deepEqual(result[ENTERPRISE_USER], { department: 'Tour' });
  });

  it('a value-filtered path changes the matching element only', () => {
    const result = patch(user(), [{ op: 'replace', path: 'emails[type eq "home"].value', value: 'new@home.example' }]);
    assert.deepEqual(result.emails, [
      { value: 'b@work.example', type: 'work', primary: true },
      { value: 'new@home.example', type: 'home' },
    ]);
  });

  it('Entra: a value filter that matches nothing creates the element it describes', () => {
    const result = patch({ userName: 'x' }, [{ op: 'add', path: 'emails[type eq "work"].value', value: 'x@work.example' }]);
    assert.deepEqual(result.emails, [{ type: 'work', value: 'x@work.example' }]);
  });

  it('replace through a filter that matches nothing and describes no element is noTarget', () => {
    assert.throws(() => patch(user(), [{ op: 'replace', path: 'emails[value co "nowhere"].type', value: 'work' }]), scimType('noTarget'));
  });

  it('remove with a list of values removes those elements only', () => {
    const result = patch(user(), [{ op: 'remove', path: 'emails', value: [{ value: 'b@home.example' }] }]);
    assert.deepEqual(result.emails, [{ value: 'b@work.example', type: 'work', primary: true }]);
  });

  it('RFC 7643 §2.4: a newly primary element makes the others not primary', () => {
    const result = patch(user(), [{ op: 'add', path: 'emails', value: [{ value: 'c@work.example', type: 'work', primary: true }] }]);
    const primaries = (result.emails as JsonObject[]).filter((e) => e.primary === true).map((e) => e.value);
    assert.deepEqual(primaries, ['c@work.example']);
  });

  it('replace with null clears the attribute, as Okta and Entra clear one', () => {
    const result = patch(user(), [{ op: 'replace', path: 'name.givenName', value: null }]);
    assert.deepEqual(result.name, { familyName: 'Jensen' });
  });

  it('refusals carry the scimType of RFC 7644 table 9', () => {
    assert.throws(() => normaliseOperations([]), scimType('invalidSyntax'));
    assert.throws(() => normaliseOperations([{ op: 'move', path: 'active', value: true }]), scimType('invalidSyntax'));
    assert.throws(() => normaliseOperations([{ op: 'add', path: 'active' }]), scimType('invalidSyntax'));
    assert.throws(() => normaliseOperations([{ op: 'add', path: ' ', value: 1 }]), scimType('invalidPath'));
    assert.throws(() => parsePatchPath(USER_SCHEMA, 'nosuch'), scimType('invalidPath'));
    assert.throws(() => parsePatchPath(USER_SCHEMA, 'emails[type eq'), scimType('invalidPath'));
    assert.throws(() => parsePatchPath(USER_SCHEMA, 'name[givenName eq "x"]'), scimType('invalidPath'));
    assert.throws(() => patch(user(), [{ op: 'replace', path: 'active', value: 'maybe' }]), scimType('invalidValue'));
    assert.throws(() => patch(user(), [{ op: 'replace', path: 'id', value: 'x' }]), scimType('mutability'));
    assert.throws(() => patch(user(), [{ op: 'remove' }]), scimType('noTarget'));
    assert.throws(() => patch(user(), [{ op: 'replace', path: 'emails.value', value: 'x' }]), scimType('invalidPath'));
  });
});
