package com.fasterxml.jackson.module.kotlin;

/** Stands in for jackson-module-kotlin's module: the processor looks for it by name on the class path. */
public class KotlinModule {
}
