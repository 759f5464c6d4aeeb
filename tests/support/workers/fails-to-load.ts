// A worker whose module throws while loading: what a build without the worker's file looks like to the pool.
throw new Error('this worker cannot start');
