// The ordered list of migrations; append new ones, never edit a released one.
import type { Migration } from '../migration';
import { migration0001 } from './0001-initial';
import { migration0002 } from './0002-attempt-decisions';
import { migration0003 } from './0003-resumes';
import { migration0004 } from './0004-attempt-rounds';
import { migration0005 } from './0005-run-budget';
import { migration0006 } from './0006-run-lease';
import { migration0007 } from './0007-workflow-trust';
import { migration0008 } from './0008-attempt-texts';
import { migration0009 } from './0009-stats-summary';
import { migration0010 } from './0010-query-indexes';
import { migration0013 } from './0013-stats-classes';
import { migration0014 } from './0014-run-queue';
import { migration0015 } from './0015-run-env';
import { migration0016 } from './0016-stats-tries';
import { migration0017 } from './0017-run-reason-code';
import { migration0018 } from './0018-review-comments';
import { migration0019 } from './0019-run-pr';
import { migration0020 } from './0020-run-estimate';
import { migration0021 } from './0021-schedules';
import { migration0022 } from './0022-run-pr-options';
import { migration0023 } from './0023-lease-index';

export const MIGRATIONS: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0013,
  migration0014,
  migration0015,
  migration0016,
  migration0017,
  migration0018,
  migration0019,
  migration0020,
  migration0021,
  migration0022,
  migration0023,
];
