# SPDX-License-Identifier: MIT
# kairos_make_git_repo(src repo out_tag) makes `repo` a git repository whose
# one commit holds the source tree `src` as it is on disk: the files git
# knows plus untracked ones it does not ignore, when src is a checkout, else
# everything but build/. out_tag receives the commit for GIT_TAG. Used so
# FetchContent's GIT_REPOSITORY path is tested on the tree under test, in a
# fresh clone as in a working copy with uncommitted changes.
function(kairos_make_git_repo src repo out_tag)
    find_package(Git REQUIRED)
    file(REMOVE_RECURSE ${repo})
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${src} ls-files --cached --others --exclude-standard
                    RESULT_VARIABLE rc OUTPUT_VARIABLE listing ERROR_QUIET)
    if(rc EQUAL 0)
        string(REPLACE "\n" ";" files "${listing}")
        foreach(f IN LISTS files)
            if(f AND EXISTS ${src}/${f} AND NOT IS_DIRECTORY ${src}/${f})
                get_filename_component(dir ${repo}/${f} DIRECTORY)
                file(COPY ${src}/${f} DESTINATION ${dir})
            endif()
        endforeach()
    else()
        file(COPY ${src}/ DESTINATION ${repo} PATTERN build EXCLUDE PATTERN .git EXCLUDE)
    endif()
    set(git ${GIT_EXECUTABLE} -C ${repo} -c user.name=kairos-test -c user.email=test@invalid
            -c init.defaultBranch=main -c commit.gpgsign=false)
    foreach(step "init;-q" "add;-A" "commit;-q;-m;tree under test")
        execute_process(COMMAND ${git} ${step} RESULT_VARIABLE rc)
        if(rc)
            message(FATAL_ERROR "git ${step} in ${repo} failed")
        endif()
    endforeach()
    execute_process(COMMAND ${git} rev-parse HEAD OUTPUT_VARIABLE head
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(${out_tag} ${head} PARENT_SCOPE)
endfunction()
