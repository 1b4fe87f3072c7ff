package org.sourceoftruth.records.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package graph of records-api, held by a test so it stays what the README describes:
 * no package cycles, and the engine and the layers under it never reach up into the
 * applications (dcim, ipam, ...) that are declared on top of them.
 */
class ArchitectureTest {
    private static final String ROOT = "org.sourceoftruth.records";
    /** The generic engine and what it stands on. */
    private static final String[] ENGINE = {ROOT + ".api..", ROOT + ".model..", ROOT + ".db..", ROOT + ".web..",
            ROOT + ".net..", ROOT + ".auth..", ROOT + ".changelog.."};
    /** NetBox's applications, declared on the engine. */
    private static final String[] APPS = {ROOT + ".dcim..", ROOT + ".ipam..", ROOT + ".circuits..",
            ROOT + ".tenancy..", ROOT + ".virtualization..", ROOT + ".extras..", ROOT + ".users..",
            ROOT + ".core.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    void packagesAreFreeOfCycles() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void theEngineDoesNotDependOnTheApplications() {
        noClasses().that().resideInAnyPackage(ENGINE).should().dependOnClassesThat().resideInAnyPackage(APPS)
                .check(classes);
    }

    @Test
    void webAndStorageLayersDoNotDependOnTheEngine() {
        noClasses().that().resideInAnyPackage(ROOT + ".db..", ROOT + ".web..", ROOT + ".net..", ROOT + ".model..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".api..", ROOT + ".auth..",
                        ROOT + ".changelog..")
                .check(classes);
    }
}
