/** Action license keys (`<group>.<action>`, lower snake case) and package slugs. */
import { invalid } from '../../../kernel/errors';

export const ACTION_KEY_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*\.[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
export const GROUP_KEY_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
export const PACKAGE_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Keys longer than this are refused before they reach storage. */
export const MAX_KEY_LENGTH = 100;

export const isActionKey = (value: string): boolean => value.length <= MAX_KEY_LENGTH && ACTION_KEY_PATTERN.test(value);
export const isPackageSlug = (value: string): boolean => value.length <= MAX_KEY_LENGTH && PACKAGE_SLUG_PATTERN.test(value);

/** The group part of a well-formed key. */
export const groupOf = (actionKey: string): string => actionKey.slice(0, actionKey.indexOf('.'));

/** 400 `invalid_action_key` naming the parameter that carried it. */
export function requireActionKey(value: string, param = 'action_key'): string {
  if (!isActionKey(value)) {
    throw invalid(
      'invalid_action_key',
      `'${value.slice(0, MAX_KEY_LENGTH)}' is not an action key: expected "<group>.<action>" in lower snake case, e.g. "profile.accept_application"`,
      param,
    );
  }
  return value;
}
