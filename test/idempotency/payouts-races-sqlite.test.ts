/** 100 identical POST /v1/payouts with one key at once, on SQLite, in one process (see races.ts). */
import { describeOneProcess } from './races.ts';

describeOneProcess('sqlite');
