/**
 * The actions that make an organization's applications checked automatically against their
 * listing's requirements: holding any one of them is enough.
 */
export const VERIFICATION_ACTIONS = [
  'background_checks.credentialing',
  'background_checks.license_verification',
  'background_checks.food_handler_verification',
  'background_checks.union_verification',
  'background_checks.compliance_tracking',
  'background_checks.run_check',
  'background_checks.continuous_monitoring',
  'background_checks.route_verification',
] as const;
