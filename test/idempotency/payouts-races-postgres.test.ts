/** 100 identical POST /v1/payouts with one key at once, on PostgreSQL, in one process (see races.ts). */
import { describeOneProcess } from './races.ts';

describeOneProcess('postgres');
