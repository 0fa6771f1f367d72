/** 100 identical POST /v1/payouts with one key at once, spread over two processes on SQLite (see races.ts). */
import { describeTwoProcesses } from './races.ts';

describeTwoProcesses('sqlite');
